"""Pictures: SVG drawings of sudokus written with no dependency (``svg``), and plots of catalog
data with matplotlib, an optional dependency (``plots``; ``pip install 'sudoku-symmetry[plot]'``).

Both take plain values (81-character strings, lists of numbers) and import neither the engine
nor the catalog: the commands (``bin/plot``, ``--svg`` options) and the Python API join them.
"""
