"""The commands run on tiny inputs, every path whose kernels differ: what ``bench/bench_compile.py``
times with an empty kernel cache and what ``tests/test_warmup.py`` checks ``engine/warmup.py``
against (a new command, or a new path of one, belongs here)."""
from __future__ import annotations

import contextlib
import importlib
import io
from pathlib import Path

PUZZLE = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
PUZZLE_B = "....95.........738........4.............6..2...87....3...........78.4....9....61."
GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
GRID_B = "456132789123798456789465123214879365365241897897356214531987642642513978978624531"
BAND = "123456789456789123789123456"


def workloads(tmp: Path) -> dict[str, list[list[str]]]:
    """command -> the argument lists it is run with (files written under ``tmp``)."""
    puzzles = tmp / "puzzles.txt"
    puzzles.write_text("\n".join([PUZZLE, PUZZLE_B, GRID, "." * 81, "1" + "." * 80]) + "\n")
    bands = tmp / "bands.txt"
    bands.write_text(BAND + "\n123456789457893612986217354\n")
    minimal = tmp / "minimal.txt"
    minimal.write_text(PUZZLE + "\n")
    unique = tmp / "unique.txt"
    unique.write_text(PUZZLE + "\n" + GRID + "\n")
    pattern = tmp / "pattern.txt"
    pattern.write_text(PUZZLE.replace(".", "0") + "\n" + "".join("x" if c != "." else "." for c in PUZZLE) + "\n")
    p = str(puzzles)
    unique = tmp / "unique.txt"
    unique.write_text(PUZZLE + "\n" + PUZZLE_B + "\n")
    return {
        "populate": [["--step", "bands", "--step", "ed_grids", "--step", "s17_entry"]],  # not the warm-up
        "band": [[str(bands)]],
        "canon": [[p], ["--pattern-first", p], ["--automorphisms", "--transform", p], ["--store", p]],
        "equiv": [[PUZZLE, PUZZLE_B], [GRID, GRID_B], ["--show", PUZZLE, PUZZLE]],
        "solve": [[p], ["--count", p], ["--all", "--cap", "3", p], ["--check", p], ["--logic-only", "--candidates", p]],
        "setlogic": [[PUZZLE]],
        "enumerate": [["--band1", "415"], ["--band1", "415", "--count-only", "--fine"]],
        "rank": [["1", GRID_B]],
        "patterns": [["--cells", "3"], ["--cells", "3", "--digits"], ["--burnside", "--cells", "4"], [str(pattern)]],
        # band-1 rank 415 has 60 bands 2 (the fewest)
        "s17-entry": [["--variant", v, "--band1-rank", "415", "--count-only"] for v in "ABC"]
        + [["--variant", "C", "--band1-rank", "415"]],
        # band 2 18 of band 1 0 has no band 3 in entry A: the searcher is built (every kernel a pair calls), no
        # pair is searched
        "s17-search": [["--variant", "B", "--band1-rank", "0", "--bands2", "18:19"]],
        "unavoidable": [[GRID]],
        "find-puzzles": [["--clues", "80", GRID], ["--clues", "80", "--minimal", "--limit", "2", GRID],
                         ["--pattern", PUZZLE, "--fixed", PUZZLE[:64] + "." * 17],
                         ["--pattern", PUZZLE, "--fixed", PUZZLE[:64] + "." * 17, "--minimal", "--count-only"]],
        "vicinity": [[PUZZLE], ["--minus", "2", "--plus", "1", PUZZLE], ["--plus", "0", "--minimal", PUZZLE]],
        "generate": [["--grids", "2"], ["--count", "2", "--symmetry", "180", "--stats"],
                     ["--count", "1", "--clues", "20-40", "--solutions"]],
        "minimize": [[str(unique)], ["--order", "forward", str(unique)], ["--all", str(minimal)]],
        "rate": [["--max-level", "1", str(unique)], ["--max-level", "1", "--steps", str(unique)]],
    }


def run_command(name: str, argv: list[str]) -> None:
    """``bin/NAME ARGV`` in this process, its output discarded; exit 0 or 1, else RuntimeError."""
    module = importlib.import_module(f"sudoku_symmetry.commands.{name.replace('-', '_')}")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        status = module.main(argv)
    if status not in (0, 1):
        raise RuntimeError(f"{name} {' '.join(argv)}: exit {status}\n{err.getvalue()[-2000:]}")
