"""The fine counts of the ED grids as package data (``catalog/data/ed_grid_fine.npz`` + ``.json``).

``bin/enumerate --count-only --fine`` stores a checkpoint about every 128 grids inside each
row-4 prefix (``ed_grid_fine``, see :mod:`engine.grids.rank`); the package ships them thinned to
one every ``step`` grids (384: the lookups' work against the 25 MB budget; measured on bands
0-8, about 17 MB for the whole catalog), as small integers that compress well, for the bands 1
whose fine counts are complete:

* ``bands`` (B,) int16; per prefix of those bands in order ``cp_per_prefix``;
* per checkpoint ``cp_dord``, its band-2 ordinal minus the previous checkpoint's in the prefix
  (0 first), and ``cp_dcount``, its grids minus the previous one's minus ``step`` (>= 0: a
  checkpoint is kept when ``step`` grids passed since the last one).

Each is a 16-bit number stored as two uint8 arrays (``_lo``, ``_hi``): the high bytes are
nearly all 0 and compress apart from the low ones (18% smaller than uint16 under zlib).

The manifest (``.json``) holds the sha256, the step, the bands covered, ``complete`` (all 416
and the whole-run checks passed) and the regeneration command. :func:`load_fine_package` gives
``band -> (checkpoints per prefix, (C, 2) checkpoints)``, what the engine's ``RankIndex`` takes
(``jobs.ed_grids.catalog_counts`` joins them). Plain arrays in and out: no engine here.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import numpy as np

from .bands import N_BANDS
from .errors import CatalogError
from .grids import fine_prefixes, load_band_prefixes, load_fine, load_prefix_counts, load_totals
from .shipped import ED_GRID_COUNTS, ED_GRID_FINE as DATA, ed_grid_counts
COMMAND = ("bin/populate --db DB && bin/enumerate --all --count-only --fine --db DB && "
           "bin/enumerate --export-fine catalog/data/ed_grid_fine.npz --fine-step {step} --db DB")


def thin(per: np.ndarray, cps: np.ndarray, counts: np.ndarray, step: int):
    """Keep, in each prefix, a checkpoint once ``step`` grids passed since the last one kept
    (and never one at the prefix's end, which no lookup needs); returns (per, dord, dcount)."""
    out_per = np.zeros(len(per), np.int64)
    dord, dcnt = [], []
    off = 0
    for p, n in enumerate(per.tolist()):
        last_o = last_c = 0
        for o, c in cps[off : off + n].tolist():
            if c - last_c >= step and c < counts[p]:
                dord.append(o - last_o)
                dcnt.append(c - last_c - step)
                last_o, last_c = o, c
                out_per[p] += 1
        off += n
    return out_per, np.array(dord, np.int64), np.array(dcnt, np.int64)


def _planes(arrays: dict, name: str, a: np.ndarray) -> None:
    if len(a) and (a.min() < 0 or a.max() > 0xFFFF):
        raise ValueError(f"fine counts: {name} does not fit 16 bits")
    arrays[name + "_lo"] = (a & 0xFF).astype(np.uint8)
    arrays[name + "_hi"] = (a >> 8).astype(np.uint8)


def _unplanes(f, name: str) -> np.ndarray:
    return f[name + "_lo"].astype(np.int64) | (f[name + "_hi"].astype(np.int64) << 8)


@dataclass
class FineExport:
    """What :func:`export_fine` wrote: the bands 1 (``carried`` of them from the package data),
    the checkpoints, the file's size."""

    bands: list[int]
    carried: int
    checkpoints: int
    size: int


def export_fine(catalog, path: str, step: int, keep_shipped: bool = False) -> FineExport:
    """Write the complete bands' fine counts, thinned to ``step``, as package data.

    ``keep_shipped``: also carry over, unchanged, the bands 1 that the package data shipped now
    holds and the catalog does not (same step only), so a long recount can run in pieces on
    fresh machines and each export adds to what was shipped before. Thinning is idempotent (the
    shipped checkpoints are already ``step`` grids apart), so a carried band encodes exactly as
    its recount would."""
    have = fine_prefixes(catalog)
    totals = load_totals(catalog)
    n_prefixes = load_band_prefixes(catalog)
    mine = [b for b in range(N_BANDS) if b in totals and have.get(b, 0) == n_prefixes[b]]
    carry: dict = {}
    if keep_shipped and DATA.exists():
        if int(json.loads(DATA.with_suffix(".json").read_text())["step"]) != step:
            raise CatalogError(f"--keep-shipped: the shipped fine counts have another step than {step}"
                               " (thinned checkpoints cannot be thinned again to it)")
        carry = {b: v for b, v in load_fine_package(DATA, n_prefixes).items() if b not in mine and b in totals}
    bands = sorted(mine + list(carry))
    per_all, dord_all, dcnt_all = [], [], []
    for b in bands:
        per, cps = carry[b] if b in carry else load_fine(catalog, b)[1:]
        counts = np.array(load_prefix_counts(catalog, b), np.int64)
        per, dord, dcnt = thin(per, cps, counts, step)
        per_all.append(per), dord_all.append(dord), dcnt_all.append(dcnt)
    cat = lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.int64)  # noqa: E731
    arrays = {"bands": np.array(bands, np.int16)}
    _planes(arrays, "cp_per_prefix", cat(per_all))
    _planes(arrays, "cp_dord", cat(dord_all))
    _planes(arrays, "cp_dcount", cat(dcnt_all))
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    # complete: every band 1 covered and the recount equals the shipped totals band by band
    coarse = ed_grid_counts(ED_GRID_COUNTS, check=False) or {"band1": np.zeros(0), "grids": np.zeros(0)}
    shipped = dict(zip(coarse["band1"].tolist(), coarse["grids"].tolist()))
    agree = all(totals.get(b) == shipped.get(b) for b in range(N_BANDS))
    manifest = {"sha256": hashlib.sha256(open(path, "rb").read()).hexdigest(), "step": int(step),
                "bands": bands, "complete": len(bands) == N_BANDS and agree,
                "checkpoints": int(len(arrays["cp_dord_lo"])), "command": COMMAND.format(step=step)}
    with open(str(Path(path).with_suffix(".json")), "w") as fh:
        json.dump(manifest, fh, indent=1)
        fh.write("\n")
    return FineExport(bands, len(carry), manifest["checkpoints"], Path(path).stat().st_size)


def load_fine_package(path: Path = DATA, n_prefixes: Mapping[int, int] | None = None
                      ) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """band -> (checkpoints per prefix, (C, 2) rows (band-2 ordinal, grids before it in its
    prefix)), checked against the manifest's sha256; {} when there is no package data.
    ``n_prefixes``: band 1 -> its number of row-4 prefixes (default: the shipped ED-grid counts')."""
    if not path.exists():
        return {}
    manifest = json.loads(path.with_suffix(".json").read_text())
    raw = path.read_bytes()
    if hashlib.sha256(raw).hexdigest() != manifest["sha256"]:
        raise RuntimeError(f"{path}: sha256 does not match its manifest")
    step = int(manifest["step"])
    with np.load(path) as f:
        bands = f["bands"].astype(np.int64)
        per = _unplanes(f, "cp_per_prefix")
        dord = _unplanes(f, "cp_dord")
        dcnt = _unplanes(f, "cp_dcount") + step
    # cumulative sums restarting at each prefix: a global cumsum minus its value at the prefix start
    start = np.concatenate([[0], np.cumsum(per)])
    first = np.repeat(start[:-1], per)
    o, c = np.cumsum(dord), np.cumsum(dcnt)
    o_base = np.concatenate([[0], o])[first]
    c_base = np.concatenate([[0], c])[first]
    cps = np.stack([o - o_base, c - c_base], axis=1)
    out, p0 = {}, 0
    if n_prefixes is None:
        coarse = ed_grid_counts(ED_GRID_COUNTS, check=False)
        n_prefixes = {} if coarse is None else dict(zip(coarse["band1"].tolist(), coarse["prefixes"].tolist()))
    for b in bands.tolist():
        n = int(n_prefixes[b])
        pp = per[p0 : p0 + n]
        out[b] = (pp, cps[start[p0] : start[p0 + n]])
        p0 += n
    if p0 != len(per):
        raise ValueError(f"{path}: the prefixes do not match the bands")
    return out
