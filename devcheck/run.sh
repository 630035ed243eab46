#!/bin/bash
# Speed of the 17-clue search against old main c1d3d02: A:64, B:64, A:410 (whole band 1), C:64,
# and the cold compile of the search's kernels, alternating old and new in parallel processes,
# CPU seconds per process, medians. Writes $OUT/devcheck.txt (the table) and devcheck.txt.log (rows).
#   bash devcheck/run.sh            (from the repository root; numba and numpy needed, nothing else)
# Old main's engine: `git archive c1d3d02 engine` when the repository's history is here, else
# devcheck/old-c1d3d02.tar.gz (carry it). Env: ROUNDS (5), COMPILE_ROUNDS (3), JOBS_PARALLEL
# (CPUs - 1), PYTHON (python3), SPECS.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$REPO/devcheck-out}
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/devcheck.XXXXXX)
PYTHON=${PYTHON:-python3}
export PYTHON
for side in old new; do mkdir -p "$WORK/$side/sudoku_symmetry"; : > "$WORK/$side/sudoku_symmetry/__init__.py"; done
if git -C "$REPO" cat-file -e c1d3d02 2>/dev/null; then
  git -C "$REPO" archive c1d3d02 engine | tar -x -C "$WORK/old/sudoku_symmetry"
else
  tar -xzf "$REPO/devcheck/old-c1d3d02.tar.gz" -C "$WORK/old/sudoku_symmetry"
fi
cp -r "$REPO/engine" "$WORK/new/sudoku_symmetry/engine"
find "$WORK" -name __pycache__ -prune -exec rm -rf {} +
"$PYTHON" -c "import numba, numpy, sys; print('python', sys.version.split()[0], 'numba', numba.__version__, 'numpy', numpy.__version__)" | tee "$OUT/devcheck.txt.log"
"$PYTHON" "$REPO/devcheck/drive.py" "$WORK" "$OUT/devcheck.txt"
mv "$OUT/devcheck.txt.log" "$OUT/devcheck-rows.log" 2>/dev/null || true
