"""The `band` command: output format, alignment, line-numbered errors, exit status, streaming."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from sudoku_symmetry.engine.bands.tables import band_index, band_tables, random_bands
from sudoku_symmetry.engine.text import format_lines
from sudoku_symmetry.engine.group.transform import Transform
from sudoku_symmetry.commands import band as band_cmd

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ)  # the engine's cache folder ($SUDOKU_CACHE_DIR) is shared with the test process
BAND0 = "123456789456789123789123456"


def run_main(capsys, argv):
    code = band_cmd.main(argv)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_random_bands_map_onto_their_minlex_band(tmp_path, capsys):
    bands = random_bands(300, np.random.default_rng(7))
    f = tmp_path / "bands.txt"
    f.write_text("\n".join(format_lines(bands)) + "\n")
    code, out, err = run_main(capsys, [str(f)])
    assert code == 0 and err == [] and len(out) == 300
    T = band_tables()
    expected, _ = band_index(bands)
    for line, band, want in zip(out, bands, expected):
        index, minlex, tstr = line.split(" ")
        assert int(index) == want and minlex == T.minlex_string(int(index))
        assert "".join(map(str, Transform.parse(tstr).apply_band(band))) == minlex


def test_bad_lines_are_reported_in_place_with_line_numbers(tmp_path, capsys):
    f = tmp_path / "mixed.txt"
    f.write_text("\n".join([
        "# a comment",
        BAND0,
        "",
        "12345678945678912378912345",      # line 4: 26 cells
        "113456789456789123789123456",     # line 5: row 1 repeats a digit
        "123456789123456789789123456",     # line 6: row 2 repeats row 1's box digits
        "12345678945678912378912345x",     # line 7: bad character
        "987654321654321987321987654",
    ]) + "\n")
    code, out, err = run_main(capsys, [str(f)])
    assert code == 2
    assert out[0] == f"0 {BAND0} 0:123456789:123456789:123456789"
    assert out[1] == "error line 4: expected 27 cells, got 26"
    assert out[2].startswith("error line 5: row 1")
    assert out[3].startswith("error line 6: row 2")
    assert out[4].startswith("error line 7: invalid character 'x'")
    assert out[5].startswith(f"0 {BAND0} ")
    assert len(out) == 6
    assert [e.split(":")[2] for e in err[:4]] == ["4", "5", "6", "7"]
    assert all(e.startswith(f"error: {f}:") for e in err[:4])
    assert err[-1] == "band: 6 bands read, 2 done, 4 bad"


def test_streams_in_chunks_and_keeps_order(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(band_cmd, "CHUNK", 4)
    bands = format_lines(random_bands(10, np.random.default_rng(3)))
    lines = bands[:3] + ["bad"] + bands[3:5] + ["# c"] + bands[5:] + ["1" * 27]
    f = tmp_path / "b.txt"
    f.write_text("\n".join(lines) + "\n")
    code, out, err = run_main(capsys, [str(f), str(f)])
    assert code == 2 and len(out) == 2 * 12
    assert out[3] == "error line 4: expected 27 cells, got 3" and out[11].startswith("error line 13: row 1")
    assert out[12:] == out[:12]
    want, _ = band_index(bands)
    assert [int(o.split()[0]) for o in out[:12] if not o.startswith("error")] == want.tolist()


def test_help(capsys):
    with pytest.raises(SystemExit) as exc:
        band_cmd.main(["--help"])
    assert exc.value.code == 0
    assert "INDEX MINLEX_BAND" in capsys.readouterr().out


def test_executable_from_another_directory_reads_stdin(tmp_path):
    r = subprocess.run([str(ROOT / "bin" / "band")], input=f"{BAND0}\nxyz\n", capture_output=True, text=True,
                       cwd=tmp_path, env=ENV)
    assert r.returncode == 2
    assert r.stdout.splitlines() == [f"0 {BAND0} 0:123456789:123456789:123456789",
                                     "error line 2: expected 27 cells, got 3"]
    assert "error: <stdin>:2: expected 27 cells, got 3" in r.stderr


def test_missing_file_is_an_error(tmp_path, capsys):
    f = tmp_path / "ok.txt"
    f.write_text(BAND0 + "\n")
    # every input is checked before any output: the good file first prints nothing
    assert band_cmd.main([str(f), str(tmp_path / "nope.txt")]) == 2
    assert capsys.readouterr() == ("", f"band: error: {tmp_path / 'nope.txt'}: no such file\n")
