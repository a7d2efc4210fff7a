#!/bin/sh
# The packed network's forward pass beside onnxruntime, one thread each, pinned to core 0, on an
# otherwise idle machine: 5 alternating rounds (scripts/bench-inference.py's default), each
# figure the median of 3 timed runs. The pjlab rows name the instruction set they ran on
# (`pjlab packed kernels:`), and `pjlab packed, AVX2 kernels` is the same network forced onto
# AVX2 in the same run, so the table shows what AVX-512 buys on this CPU.
#
#   experiments/inference-avx512/run.sh [FILE]    (after `cargo build --release -p pjlab-cli`)
#
# The output goes to FILE in this directory (default results.txt) only when the whole run
# succeeded.
set -e
cd "$(dirname "$0")/../.."
E=experiments/inference-avx512
PYTHON=${PYTHON:-python3}
FILE=${1:-results.txt}
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
{
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "CPU family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "AVX-512 flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep '^avx512' | tr '\n' ' ')"
  echo "commit: $(git rev-parse --short=12 HEAD)"
  uptime
} > "$TMP"
"$PYTHON" scripts/bench-inference.py --cpu 0 >> "$TMP"
uptime >> "$TMP"
cp "$TMP" "$E/$FILE"
cat "$E/$FILE"
