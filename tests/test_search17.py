"""The 17-clue search entry: the band order (published counts, a brute-force reference), the
generator against the minlex catalog (index order: same grids, band by band), representatives
and distinct canonical forms in the search order, B = A exchanged into pairs of the list, a killed run
resumed."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from sudoku_symmetry.catalog.db import open_catalog
from sudoku_symmetry.catalog.search17 import load_band_order, load_entry_bands
from sudoku_symmetry.commands import s17_entry
from sudoku_symmetry.engine.bands import band_index, band_tables
from sudoku_symmetry.engine.canon import canon_grids
from sudoku_symmetry.engine.grids import enumerate_band1
from sudoku_symmetry.engine.search17 import band1, band_order, bands2, entry_slice, valid_count
from sudoku_symmetry.engine.search17 import gangsters as GS

from naive_search17 import naive_exchanged, naive_gangster_bands3, naive_representative, naive_valid_count

ROOT = Path(__file__).resolve().parent.parent
ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}


def test_published_valid_6_clue_counts():
    o = band_order()
    assert o.valid6[0] == 729 and o.valid6[1] == 10_503
    assert sorted(o.by_rank.tolist()) == list(range(416))
    assert all(o.valid6[o.by_rank[r]] <= o.valid6[o.by_rank[r + 1]] for r in range(415))
    assert all(o.rank[o.by_rank[r]] == r for r in range(416))
    # the fewest clues fixing a band: none with one fewer
    for i in (0, 1, 2, 28, 223):
        m = int(o.min_clues[i])
        assert valid_count(i, m) > 0 and valid_count(i, m - 1) == 0


@pytest.mark.parametrize("index,k", [(0, 6), (1, 5), (223, 5), (223, 6), (28, 2)])
def test_valid_counts_match_brute_force(index, k):
    band = [int(v) for v in band_tables().minlex[index]]
    o = band_order()
    expected = {5: o.valid5, 6: o.valid6}[k][index] if k in (5, 6) else valid_count(index, k)
    assert naive_valid_count(band, k) == expected


def _grids(s, rank, order="s17"):
    b2s = bands2(rank, order)
    x = band1(rank, order).band.astype(np.uint8)
    n = len(s.bands3)
    return np.concatenate([np.tile(x, (n, 1)), b2s[s.start + s.owner], s.bands3], axis=1)


@pytest.mark.parametrize("index", [380])
def test_index_order_gives_the_minlex_catalog_band_by_band(index):
    """With the minlex index as the order, variant A's grids of band 1 X are the minlex catalog's
    grids of band 1 X (up to the choice of representative), and each is the naive one."""
    s = entry_slice("A", index, emit=True, order="index")
    grids = _grids(s, index, "index")
    ref = enumerate_band1(index, emit=True).grids
    forms = canon_grids(grids).forms
    assert len({f.tobytes() for f in forms}) == len(grids) == len(ref)
    assert {f.tobytes() for f in forms} == {g.tobytes() for g in ref}
    ident = list(range(416))
    reps = {tuple(naive_representative(g.tolist(), index, ident)) for g in ref}
    assert reps == {tuple(g.tolist()) for g in grids}


@pytest.mark.parametrize("rank", [396, 411])
def test_search_order_grids_are_distinct_representatives(rank):
    o = band_order()
    s = entry_slice("A", rank, emit=True)
    grids = _grids(s, rank)
    assert len(grids) > 0 and s.total == len(grids)
    x = int(o.by_rank[rank])
    forms = canon_grids(grids).forms
    assert len({f.tobytes() for f in forms}) == len(grids)
    transposed_differs = 0
    for g in grids:
        assert naive_representative(g.tolist(), x, o.rank.tolist()) == g.tolist()
        chutes = [g[27 * b: 27 * b + 27] for b in range(3)] + \
                 [g.reshape(9, 9)[:, 3 * k: 3 * k + 3].T.reshape(27) for k in range(3)]
        ranks = o.rank[band_index(np.array(chutes))[0]]
        assert ranks.min() == rank and ranks[1] <= ranks[2]
        # the transpose is a representation too when a stack has rank K: its rank pair is not smaller
        stacks = sorted(ranks[3:].tolist())
        if stacks[0] == rank:
            assert (ranks[1], ranks[2]) <= (stacks[1], stacks[2])
            transposed_differs += (ranks[1], ranks[2]) != (stacks[1], stacks[2])
    assert transposed_differs == {396: 2, 411: 0}[rank]
    # C: the same bands 2, and at least as many bands 3 (band 3 free)
    c = entry_slice("C", rank)
    assert c.stop == s.stop and (c.counts >= s.counts).all()


def _cmd(args, capsys):
    assert s17_entry.main(args) == 0
    return capsys.readouterr().out


def _lines(out: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines()[:-1] if not line.endswith("-")]


@pytest.mark.parametrize("rank", [400, 370])
def test_b_is_a_exchanged_into_pairs_of_the_list(rank):
    """Variant B's lines, bands 2 and 3 exchanged and put in their smallest form under the
    automorphisms of X, are A's lines one for one (so pass B searches A's frame), but for the grids
    whose three bands have index X (pass A searches their 6-6-5); band 2 has the higher rank."""
    o = band_order()
    x = int(o.by_rank[rank])
    a, b = _grids(entry_slice("A", rank, emit=True), rank), _grids(entry_slice("B", rank, emit=True), rank)
    ia = band_index(a.reshape(-1, 27))[0].reshape(-1, 3)
    all_x = (ia == x).all(axis=1)
    assert all_x.any() and (~all_x).any()  # both kinds at these ranks (2 of 5 at 400, 9 of 531 at 370)
    ib = band_index(b.reshape(-1, 27))[0].reshape(-1, 3)
    assert (o.rank[ib[:, 1]] >= o.rank[ib[:, 2]]).all() and (o.rank[ib] >= rank).all() and (ib[:, 1] != x).all()
    exchanged = [tuple(naive_exchanged(g.tolist(), x)) for g in b]
    assert len(set(exchanged)) == len(b)
    assert set(exchanged) == {tuple(g.tolist()) for g in a[~all_x]}


def test_b_entry_command_writes_b_lines(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    a = _cmd(["--variant", "A", "--band1-rank", "400,410", "--db", db], capsys)
    b = _cmd(["--variant", "B", "--band1-rank", "400,410", "--db", db], capsys)
    la, lb = _lines(a), _lines(b)
    assert len(la) == 6 and len(lb) == 4  # rank 400: 5 grids, 2 with every band of index X; 410: 1
    x = {int(k): int(band_order().by_rank[int(k)]) for k, _, _ in la}
    a_set = {(k, b2, b3) for k, b2, b3 in la}
    for k, b2, b3 in lb:
        g = naive_exchanged([int(c) for c in band1(int(k)).band.tolist()] + [int(c) for c in b2 + b3], x[int(k)])
        assert (k, "".join(map(str, g[27:54])), "".join(map(str, g[54:]))) in a_set
    assert a.splitlines()[-1].split()[1] == b.splitlines()[-1].split()[1]  # the same bands 2
    _cmd(["--table", "--db", db], capsys)
    engine = open_catalog(db)
    ea, eb = load_entry_bands(engine, "A"), load_entry_bands(engine, "B")
    assert ea.keys() == eb.keys() == {400, 410}
    assert [v[:2] for v in ea.values()] == [v[:2] for v in eb.values()]
    assert ea[400][2] == 5 and eb[400][2] == 3 and ea[410] == eb[410]
    assert len(load_band_order(engine)) == 416


def test_bad_arguments(tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    for args in (["--variant", "D", "--band1-rank", "1"], ["--variant", "A", "--band1-rank", "416"],
                 ["--band1-rank", "1"], ["--variant", "A", "--band1-rank", "1", "--count-only", "--out", "x"]):
        try:
            status = s17_entry.main(args + ["--db", db])
        except SystemExit as exc:  # argparse
            status = exc.code
        assert status == 2
        assert "error" in capsys.readouterr().err


def _run(args, kill_after=None):
    p = subprocess.Popen([str(ROOT / "bin" / "s17-entry")] + args, env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if kill_after is None:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()
        return
    time.sleep(kill_after)
    p.send_signal(signal.SIGKILL)
    p.communicate()


def test_killed_run_resumes_to_identical_counts_and_file(tmp_path):
    args = ["--variant", "C", "--band1-rank", "414", "--chunk", "16"]
    ref_db, ref_out = tmp_path / "ref.sqlite", tmp_path / "ref.txt"
    _run(args + ["--out", str(ref_out), "--db", str(ref_db)])
    db, out = tmp_path / "k.sqlite", tmp_path / "k.txt"
    rng = random.Random(5)
    # a commit per slice, then slices gathered per second (the default): the same run either way
    for every in (["--checkpoint-seconds", "0"], []):
        _run(args + every + ["--out", str(out), "--db", str(db)], kill_after=rng.uniform(3.0, 10.0))
    _run(args + ["--out", str(out), "--db", str(db)])
    assert out.read_bytes() == ref_out.read_bytes()
    assert out.read_text().splitlines()[-1] == "bands2 465 bands3 14501"
    assert load_entry_bands(open_catalog(str(db)), "C") == load_entry_bands(open_catalog(str(ref_db)), "C")


def test_shipped_counts_agree_with_the_order():
    """Package data: each band 1's index is the order's; complete variants reach the published totals."""
    shipped = s17_entry.shipped_counts()
    o = band_order()
    for variant, rows in shipped.items():
        for rank, (index, n2, n3) in rows.items():
            assert index == o.by_rank[rank] and 0 <= n3 and 0 <= n2
        if len(rows) == 416:
            if variant in ("A", "B"):
                assert sum(r[2] for r in rows.values()) == 5_472_730_538
            else:
                assert sum(r[1] for r in rows.values()) == 983_959_110
    if 0 in shipped.get("A", {}):
        assert shipped["A"][0] == (223, 984_006, 16_962_075)
    # C's pairs are A's (the same middle loop), band 1 by band 1
    for rank, (index, n2, _n3) in shipped.get("C", {}).items():
        if rank in shipped.get("A", {}):
            assert shipped["A"][rank][:2] == (index, n2)


def test_middle_loop_pruned_by_row_2_keeps_the_shipped_bands_2():
    """The middle loop skips row 3 where no band with band 2's rows 1-2 reaches band 1's rank
    (``rid_max``); the shipped counts were computed before that prune, by the full walk."""
    from sudoku_symmetry.engine.search17 import entry as E

    shipped = s17_entry.shipped_counts()["A"]
    for rank in (409, 413, 415):
        w = E.workspace()
        out = np.zeros((shipped[rank][1] + 1, 27), np.uint8)
        n = E.K.bands2(band1(rank), E._tables(), w, out)
        assert n == shipped[rank][1] and w.stats[E.K.STAT_B2_PRUNED] > 0


def test_the_first_bands_2_are_those_of_the_whole_list_whichever_comes_first():
    """``bands2(rank, stop=k)`` stops the middle loop after k bands 2: the same rows as the first
    k of the whole list, whether the whole list or a shorter or longer prefix was built before;
    the count past the end is the band 1's own."""
    from sudoku_symmetry.engine.search17 import entry as E

    rank = 402
    E._B2.clear()
    head = bands2(rank, stop=5).copy()
    longer = bands2(rank, stop=40).copy()
    grown = [bands2(rank, stop=k).copy() for k in range(41, 60)]  # each a prefix of exactly k
    whole = bands2(rank)
    assert len(whole) == s17_entry.shipped_counts()["A"][rank][1] > 60
    assert np.array_equal(head, whole[:5]) and np.array_equal(longer, whole[:40])
    assert all(np.array_equal(g, whole[:k]) for k, g in zip(range(41, 60), grown))
    assert np.array_equal(bands2(rank, stop=7), whole[:7]) and len(bands2(rank, stop=10 ** 9)) == len(whole)
    assert len(bands2(rank, stop=0)) == 0
    E._B2.clear()
    assert np.array_equal(bands2(rank, stop=len(whole) + 3), whole)  # a prefix past the end: all of them
    s = entry_slice("A", rank, 3, 9, emit=True)
    E._B2.clear()
    t = entry_slice("A", rank, 3, 9, emit=True)  # built from a prefix of 9
    assert np.array_equal(s.counts, t.counts) and np.array_equal(s.bands3, t.bands3)
    with pytest.raises(ValueError, match=rf"bad band-2 range 9..4 \(band-1 rank {rank} has {len(whole)} bands 2\)"):
        entry_slice("A", rank, 9, 4)


def test_import_shipped_then_a_run_skips_those_bands_and_export_keeps_them(tmp_path, capsys, monkeypatch):
    """How a long run goes on on a fresh machine: the package data into a new catalog, the run
    skips those bands 1, an export carries them over unchanged."""
    shipped = s17_entry.shipped_counts()
    assert shipped.get("A"), "the package data has variant A bands 1"
    db = str(tmp_path / "c.sqlite")
    assert s17_entry.main(["--import-shipped", "--db", db]) == 0
    n = len(shipped["A"])
    assert f"A: {n} new of {n} bands 1" in capsys.readouterr().err
    assert s17_entry.main(["--import-shipped", "--db", db]) == 0
    assert f"A: 0 new of {n} bands 1" in capsys.readouterr().err
    assert load_entry_bands(open_catalog(db), "A") == shipped["A"]
    r = max(shipped["A"])
    assert s17_entry.main(["--variant", "A", "--band1-rank", str(r), "--count-only", "--db", db]) == 0
    assert "1 of the bands 1 are done already: skipped" in capsys.readouterr().err
    out = tmp_path / "counts.json"
    assert s17_entry.main(["--export", str(out), "--db", db]) == 0
    import json
    data = json.loads(out.read_text())
    assert {int(row[0]): tuple(row[1:]) for row in data["bands"]["A"]} == shipped["A"]
    # a package file that disagrees with the band order is refused, naming the rank
    monkeypatch.setattr(s17_entry, "shipped_counts", lambda: {"A": {0: (999, 1, 1)}})
    assert s17_entry.main(["--import-shipped", "--db", str(tmp_path / "d.sqlite")]) == 2
    assert "band 999 at rank 0" in capsys.readouterr().err


def test_gangster_counts_sum_to_the_published_number_of_bands():
    """Over the 78,400 gangsters with stack 1 = {123}{456}{789}, bands 3 x 6 (column 1 free) x 36
    (column orders of stacks 2-3) x 9!/216 (relabelings) = 948,109,639,680 bands, i.e. the counts
    sum to 56 x 6^6 = 2,612,736; 44 classes, and the invariant decides the count."""
    G = GS.gangster_table()
    assert len(G.keys) == 44 and np.all(np.diff(G.keys) > 0)
    parts = GS.partitions()
    assert len(parts) == 280
    keys = np.zeros(len(parts) ** 2, np.int64)
    counts = np.zeros(len(parts) ** 2, np.int64)
    GS._build(parts, G.zobrist, keys, counts)
    assert counts.sum() == 56 * 6 ** 6
    assert 6 * 36 * 1680 * counts.sum() == 948_109_639_680
    assert np.array_equal(counts, G.counts[np.searchsorted(G.keys, keys)])


def test_gangster_count_against_a_naive_filling():
    rng = np.random.default_rng(7)
    parts = GS.partitions()
    G = GS.gangster_table()
    for _ in range(12):
        colset3 = np.concatenate([parts[rng.integers(280)][rng.permutation(3)] for _ in range(3)])
        colset3 = np.array(colset3, np.int64)
        n = naive_gangster_bands3(colset3)
        assert GS.count_bands3(colset3) == n
        assert G.counts[np.searchsorted(G.keys, GS.gangster_key(colset3, G.zobrist))] == n


@pytest.mark.parametrize("rank,stop", [(414, None), (0, 20_000), (300, 20_000)])
def test_variant_c_counted_from_gangsters_equals_enumerated(rank, stop):
    """Count-only C takes most counts from the gangster table; emitting enumerates every band 3."""
    from sudoku_symmetry.engine.search17 import entry as E

    b2s = bands2(rank)
    stop = len(b2s) if stop is None else stop
    W = E.workspace()
    fast = np.zeros(stop, np.int64)
    E.K.bands3(band1(rank), E._tables(), W, E.K.VARIANT_C, b2s, 0, stop, False, fast, np.zeros(0, np.int64),
               np.zeros((0, 27), np.uint8))
    assert W.stats[E.K.STAT_GANGSTER] > stop // 2  # most pairs have a trivial stabilizer
    slow = entry_slice("C", rank, 0, stop, emit=True, capacity=1 << 20)
    assert np.array_equal(fast, slow.counts)
    assert len(slow.bands3) == slow.total == fast.sum() > 0
    assert entry_slice("C", rank, 0, stop).total == slow.total


def test_docs_table_is_the_commands_output(tmp_path, capsys):
    """The docs' copy of the search's table (docs/s17-entry.md) is what ``--table --markdown``
    prints from the package data (fresh catalog): regenerate it after each export."""
    open_catalog(str(tmp_path / "t.sqlite"))  # a fresh catalog: --table only reads one
    assert s17_entry.main(["--table", "--markdown", "--db", str(tmp_path / "t.sqlite")]) == 0
    printed = capsys.readouterr().out
    readme = (ROOT / "docs" / "s17-entry.md").read_text()
    start = readme.index("<!-- s17-table -->\n") + len("<!-- s17-table -->\n")
    assert readme[start:readme.index("<!-- /s17-table -->")] == printed
    assert printed.count("\n") == 416 + 3


def test_gangster_invariant_partitions_the_416_bands_as_the_band_tables_do():
    """Each minlex band's own gangster (the digits of each column): the invariant's classes are
    the band tables' 44 gangster classes (computed there by canonical forms under column maps)."""
    T = band_tables()
    G = GS.gangster_table()
    keys = []
    for band in T.minlex.astype(np.int64):
        colset = np.array([sum(1 << int(band[r * 9 + j]) for r in range(3)) for j in range(9)], np.int64)
        keys.append(int(GS.gangster_key(colset, G.zobrist)))
        assert int(GS.gangster_key(colset, G.zobrist)) in set(G.keys.tolist())
    pairs = set(zip(keys, T.gangster_class.tolist()))
    assert len(pairs) == len(set(keys)) == len(set(T.gangster_class.tolist())) == 44
