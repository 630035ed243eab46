"""Every public function of ``import sudoku_symmetry as ss`` answers from 8 threads at once what it
answers alone: the kernels release the GIL, so any buffer two calls shared would give wrong
answers or crash. The calls run in a child process (a crash there is a failed test, not a lost
test run); each thread makes many small calls so that they overlap inside the kernels.

A public name this file has no calls for is tried on a few generic inputs (a list of puzzles, of
grids, of bands, of ranks, a grid and a clue count); one that takes none of them fails the test
until its calls are added to :func:`_calls`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve()
THREADS = 8
ROUNDS = 3

P17 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
PUZZLES = [P17, ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....",
           "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
           "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
           "....95.........738........4.............6..2...87....3...........78.4....9....61."]
RANKS = [1, 2, 1000, 123_456_789, 5_472_730_538, 804_894_942, 3_000_000_000, 42]
BANDS = ["123456789456789123789123456", "123456789457893612986217354", "123456789456789132789123465",
         "123456789789123456456789123"]


def _grids() -> list[str]:
    import sudoku_symmetry as ss

    return [ss.grid(r) for r in RANKS]


def _calls():
    """name -> list of zero-argument calls; each is made alone first, then from every thread."""
    import sudoku_symmetry as ss

    grids = _grids()
    one = [lambda p=p: ss.canon(p) for p in PUZZLES + grids]
    return {
        "canon": one + [lambda: ss.canon(PUZZLES + grids), lambda: ss.canon(grids, pattern_first=True),
                        lambda p=PUZZLES[1]: ss.canon(p, pattern_first=True)],
        "solve": [lambda p=p: ss.solve(p) for p in PUZZLES] + [lambda: ss.solve(PUZZLES)],
        "count": [lambda p=p: ss.count(p) for p in PUZZLES] + [lambda: ss.count(["." * 81] * 3, limit=50)],
        "equivalent": [lambda: ss.equivalent(grids[0], ss.canon(grids[0])),
                       lambda: ss.equivalent(PUZZLES[0], PUZZLES[1]), lambda: ss.equivalent(grids[1], grids[2])],
        "band_index": [lambda b=b: ss.band_index(b) for b in BANDS] + [lambda: ss.band_index(BANDS)],
        "rank": [lambda g=g: ss.rank(g) for g in grids] + [lambda: ss.rank(grids)],
        "grid": [lambda r=r: ss.grid(r) for r in RANKS] + [lambda: ss.grid(RANKS)],
        "Sudoku": [lambda p=p: _sudoku_answers(ss.Sudoku(p)) for p in PUZZLES[:3] + grids[:3]],
        "Transform": [lambda g=g, k=k: _transform_answers(ss.Transform.random(np.random.default_rng(k)), g)
                      for k, g in enumerate(grids[:3])],
    }


def _transform_answers(t, g):
    from sudoku_symmetry.engine.text import parse

    cells = parse(g)
    return (t.apply(cells), t.then(t.inverse()).is_identity, t.inverse().apply(t.apply(cells)), str(t))


def _catalog() -> str:
    """A small catalog (the bands) for the functions that read one, made in a temporary folder."""
    import tempfile

    from sudoku_symmetry.catalog.db import open_catalog
    from sudoku_symmetry.jobs.band_rows import store_band_rows

    path = os.path.join(tempfile.mkdtemp(prefix="threads-"), "catalog.sqlite")
    engine = open_catalog(path)
    store_band_rows(engine)
    engine.dispose()
    return path


def _more_calls(grids) -> dict:
    """Calls of the functions that take other inputs than sudokus (each only where ``ss`` has it;
    one whose call here does not fit its signature is reported as not covered)."""
    import sudoku_symmetry as ss

    db = _catalog()
    wanted = {
        "band": lambda: ss.band(BANDS),
        "ed_grids": lambda: ss.ed_grids(415),
        "patterns": lambda: ss.patterns(3),
        "pattern_count": lambda: ss.pattern_count(12),
        "pattern_canon": lambda: ss.pattern_canon(PUZZLES),
        "unavoidable_sets": lambda: ss.unavoidable_sets(grids[:2], max_size=6),
        "puzzles_in_grid": lambda: ss.puzzles_in_grid(grids[0], 80),
        "puzzles_on_pattern": lambda: ss.puzzles_on_pattern(P17, fixed=P17[:64] + "." * 17),
        "vicinity": lambda: ss.vicinity(PUZZLES[:2]),
        "random_grids": lambda: ss.random_grids(3, seed=1),
        "generate": lambda: ss.generate(1, seed=1),
        "minimize": lambda: ss.minimize([P17, P17], seed=1),
        # a 2.6 and a 9.0 (dynamic chains, the rater's reused graphs), set logic from 30 starts:
        # each answer depends on scratch state shared between calls, at a tenth of the cost of
        # every puzzle above from every start
        "rate": lambda: ss.rate([PUZZLES[0], PUZZLES[2]]),
        "setlogic": lambda: ss.setlogic(P17, max_starts=30),
        "s17_entry": lambda: ss.s17_entry(415, "A", (0, 2)),
        "search17": lambda: ss.search17(415, "A", (0, 1)),
        "query": lambda: ss.query("gangster_classes", db=db),
        "plot": lambda: ss.plot("patterns", db=db),  # needs only the catalog's schema
    }
    out = {}
    for name, call in wanted.items():
        if name in ss.__all__:
            try:
                call()
            except TypeError:
                continue
            out[name] = [call]
    return out


def _sudoku_answers(s):
    return (s.canon(), s.solve(), s.count(), len(s.automorphisms()), s.givens, s.is_grid)


def _generic(fn, grids):
    """Calls of a public function this file does not know, on the first inputs it accepts."""
    for args in ((PUZZLES,), (grids,), (BANDS,), (RANKS,), (grids[0], 80), (PUZZLES[0],), (grids[0],)):
        try:
            fn(*args)
        except Exception:  # noqa: BLE001 - not this function's input
            continue
        return [lambda a=args: fn(*a)]
    return None


def _key(value):
    """A comparable form of any answer (arrays, lists, objects with a repr, equivalences)."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes() if value.dtype != object else
                [_key(v) for v in value.tolist()])
    if isinstance(value, (list, tuple)):
        return [_key(v) for v in value]
    if hasattr(value, "steps") and hasattr(value, "forward"):  # an equivalence
        return ("equivalence", bool(value), list(value.steps), str(value.forward), getattr(value, "reason", None))
    if hasattr(value, "to_dict") and hasattr(value, "index"):  # a pandas object
        return ("pandas", repr(value))
    if hasattr(value, "savefig") and hasattr(value, "axes"):  # a matplotlib figure: what it draws
        return ("figure", [(repr(ax.get_title()), [tuple(map(tuple, line.get_xydata())) for line in ax.get_lines()],
                            [p.get_height() for p in ax.patches]) for ax in value.axes])
    return repr(value)


def check() -> dict:
    """Run every call alone, then from THREADS threads at once (ROUNDS times each, started
    together); returns the mismatches and errors per name, and the names not covered."""
    import sudoku_symmetry as ss

    calls = _calls()
    grids = _grids()
    calls.update(_more_calls(grids))
    uncovered = []
    for name in ss.__all__:
        obj = getattr(ss, name)
        if name in calls or name.startswith("__") or not callable(obj) or isinstance(obj, type):
            continue  # value types are made by the functions
        got = _generic(obj, grids)
        if got is None:
            uncovered.append(name)
        else:
            calls[name] = got
    flat = [(name, k, c) for name, cs in calls.items() for k, c in enumerate(cs)]
    expected = {(name, k): _key(c()) for name, k, c in flat}
    problems: dict[str, list[str]] = {}
    start = threading.Barrier(THREADS)

    def worker(seed: int) -> None:
        order = np.random.default_rng(seed).permutation(len(flat) * ROUNDS) % len(flat)
        start.wait()
        for i in order:
            name, k, c = flat[i]
            try:
                got = _key(c())
            except Exception as exc:  # noqa: BLE001 - every failure is reported
                problems.setdefault(name, []).append(f"call {k}: {type(exc).__name__}: {exc}")
                continue
            if got != expected[(name, k)]:
                problems.setdefault(name, []).append(f"call {k}: a different answer")

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"problems": {n: p[:5] + ([f"... {len(p)} in all"] if len(p) > 5 else []) for n, p in problems.items()},
            "uncovered": uncovered, "names": sorted(calls)}


def test_every_public_function_from_eight_threads():
    r = subprocess.run([sys.executable, str(HERE)], capture_output=True, text=True, timeout=900,
                       env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    assert r.returncode == 0, f"the child process ended with {r.returncode}: {r.stderr[-3000:]}"
    got = json.loads(r.stdout.splitlines()[-1])
    assert got["uncovered"] == [], f"public functions without calls in _calls(): {got['uncovered']}"
    assert {"canon", "solve", "count", "equivalent", "band_index", "rank", "grid"} <= set(got["names"])
    assert got["problems"] == {}


if __name__ == "__main__":
    print(json.dumps(check()))
