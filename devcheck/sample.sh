#!/bin/bash
# The 17-clue search against Sk_S17VB across the whole order: every 16th band-1 rank, passes A
# and B, his first non-empty slice and the one after it, plus 4 slices per pass holding a known 17;
# project and native CPU seconds per slice (whole processes), many slices at once.
# Rows: $OUT/s17_native_sample.jsonl; tables: $OUT/s17_native_sample.txt.
#   bash devcheck/sample.sh     (from the repository root; carry devcheck/sk17-src, and
#                                devcheck/sk17 as a fallback binary where there is no g++)
# Env: JOBS (CPUs - 1), RANKS (0-415/16), PASSES (A,B), KNOWN (4), PYTHON (python3), CACHE (a
# kernel cache folder to reuse; default a fresh one).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$REPO/devcheck-out}
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/devsample.XXXXXX)
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-$(( $(nproc) - 1 ))}
mkdir -p "$WORK/site/sudoku_symmetry" "$WORK/native"
: > "$WORK/site/sudoku_symmetry/__init__.py"
cp -r "$REPO/engine" "$WORK/site/sudoku_symmetry/engine"
if command -v g++ >/dev/null && [ -d "$REPO/devcheck/sk17-src" ]; then
  (cd "$REPO/devcheck/sk17-src" && g++ -std=gnu++14 -O3 -march=native -o "$WORK/native/sk17" *.cpp 2> "$OUT/sk17-build.log") \
    && echo "sk17 built here with $(g++ --version | head -1)" | tee "$OUT/s17_native_sample.txt"
fi
if [ ! -x "$WORK/native/sk17" ]; then
  cp "$REPO/devcheck/sk17" "$WORK/native/sk17"
  echo "sk17: the carried binary (no g++ here)" | tee "$OUT/s17_native_sample.txt"
fi
cp "$REPO"/devcheck/sk17-src/k*_p*.txt "$WORK/native/" 2>/dev/null || cp "$REPO"/devcheck/k*_p*.txt "$WORK/native/"
export PYTHONPATH="$WORK/site" SUDOKU_CACHE_DIR="${CACHE:-$WORK/cache}" SUDOKU_CATALOG="$WORK/cat.sqlite" NUMBA_NUM_THREADS=1
# the kernels compiled once, before the slices run side by side
"$PYTHON" -c "
from sudoku_symmetry.engine.search17 import search_slice
for p in '${PASSES:-A,B}'.split(','):
    search_slice(p, 0, 18, 19)
from sudoku_symmetry.engine.canon import canon_puzzles
" 
"$PYTHON" "$REPO/bench/s17_search_native.py" --native "$WORK/native/sk17" --sample "$OUT/s17_native_sample.jsonl" \
  --ranks "${RANKS:-0-415/16}" --passes "${PASSES:-A,B}" --known "${KNOWN:-4}" --jobs "$JOBS" \
  > "$OUT/s17_native_sample.progress" 2>&1 || { tail -30 "$OUT/s17_native_sample.progress"; }
"$PYTHON" "$REPO/bench/s17_search_native.py" --report "$OUT/s17_native_sample.jsonl" | tee -a "$OUT/s17_native_sample.txt"
