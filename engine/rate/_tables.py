"""Tables of the rating kernels, computed at import from the grid's geometry.

Regions are numbered the way Sudoku Explainer lists them: blocks 0-8 (left to right, top to
bottom), rows 9-17, columns 18-26; the cells of every region are in increasing cell order
(``9 * row + column``), which is also Sudoku Explainer's order inside a region.

The grid state ``g`` (int32, ``GLEN`` entries) of every rating kernel:

- ``g[CAND + c]``: the candidates of cell ``c`` (bit ``d - 1`` for digit ``d``), the solver's
  per-cell masks (``engine.solve.logic_state``); 0 for a placed cell;
- ``g[VAL + c]``: the digit placed in cell ``c``, 0 when empty;
- ``g[RPOS + 9 * r + d - 1]``: the positions of digit ``d`` in region ``r`` (bit ``i`` for the
  region's ``i``-th cell), kept in step with the candidates;
- ``g[EMPTY + r]``: the empty cells of region ``r``.
"""
import numpy as np

CAND, VAL, RPOS, EMPTY = 0, 81, 162, 405
GLEN = 432

BLOCK, ROW, COLUMN = 0, 1, 2


def _build():
    region_cells = np.zeros((27, 9), dtype=np.int64)
    for b in range(9):
        v, h = divmod(b, 3)
        for i in range(9):
            region_cells[b, i] = 9 * (3 * v + i // 3) + 3 * h + i % 3
    for r in range(9):
        region_cells[9 + r] = [9 * r + c for c in range(9)]
    for c in range(9):
        region_cells[18 + c] = [9 * r + c for r in range(9)]
    cell_region = np.zeros((81, 3), dtype=np.int64)  # block, row, column region of a cell
    cell_index = np.zeros((81, 3), dtype=np.int64)  # the cell's position inside each of them
    for reg in range(27):
        for i in range(9):
            cell = region_cells[reg, i]
            cell_region[cell, reg // 9] = reg
            cell_index[cell, reg // 9] = i
    # Sudoku Explainer's "house cells" of a cell: its block, then its row, then its column,
    # each in region order, every cell once, the cell itself left out (20 cells)
    house = np.zeros((81, 20), dtype=np.int64)
    for cell in range(81):
        seen = []
        for k in range(3):
            for i in range(9):
                other = region_cells[cell_region[cell, k], i]
                if other != cell and other not in seen:
                    seen.append(other)
        house[cell] = seen
    sees = np.zeros((81, 81), dtype=np.bool_)
    for cell in range(81):
        sees[cell, house[cell]] = True
    # bits of a row's (or column's) positions that lie in the cell's block, to skip them after
    # the block in "block, row, column" walks
    in_block = np.zeros((81, 3), dtype=np.int64)
    for cell in range(81):
        r, c = divmod(cell, 9)
        in_block[cell, BLOCK] = 0
        in_block[cell, ROW] = 7 << (3 * (c // 3))
        in_block[cell, COLUMN] = 7 << (3 * (r // 3))
    # where two regions cross: region pair -> 9-bit mask of the first region's cells inside the second
    cross = np.zeros((27, 27), dtype=np.int64)
    for a in range(27):
        for b in range(27):
            sb = set(region_cells[b].tolist())
            cross[a, b] = sum(1 << i for i in range(9) if region_cells[a, i] in sb)
    return region_cells, cell_region, cell_index, house, sees, in_block, cross


REGION_CELLS, CELL_REGION, CELL_INDEX, HOUSE, SEES, IN_BLOCK, CROSS = _build()


def _combinations(n, k):
    """Every k-subset of range(n) as a bit mask, in increasing mask order (Sudoku Explainer's
    ``Permutations(k, n)``: Gosper's next-subset order)."""
    out = [m for m in range(1 << n) if bin(m).count("1") == k]
    return np.array(out, dtype=np.int64)


COMB9 = [_combinations(9, k) for k in range(10)]
COMB9_ALL = np.concatenate(COMB9)
COMB9_START = np.cumsum([0] + [len(c) for c in COMB9]).astype(np.int64)
"""``COMB9_ALL[COMB9_START[k]:COMB9_START[k + 1]]``: the k-subsets of 9 things in SE's order."""
