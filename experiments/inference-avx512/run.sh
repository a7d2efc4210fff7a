#!/bin/sh
# The packed network's forward pass beside onnxruntime, one thread each, pinned to core 0, on an
# otherwise idle machine: 5 alternating rounds (scripts/bench-inference.py's default), each
# figure the median of 3 timed runs. The pjlab rows name the instruction set they ran on
# (`pjlab packed kernels:`), and `pjlab packed, AVX2 kernels` is the same network forced onto
# AVX2 in the same run, so the table shows what AVX-512 buys on this CPU.
#
#   experiments/inference-avx512/run.sh          (after `cargo build --release -p pjlab-cli`)
set -e
cd "$(dirname "$0")/../.."
E=experiments/inference-avx512
PYTHON=${PYTHON:-python3}
{
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "commit: $(git rev-parse --short=12 HEAD)"
  uptime
  "$PYTHON" scripts/bench-inference.py --cpu 0
  uptime
} | tee "$E/results.txt"
