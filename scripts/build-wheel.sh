#!/usr/bin/env bash
# Builds the `pjlab` Python package once, as a wheel in dist/ (or the folder given), and prints
# the command that installs it. The wheel is abi3: one file for every CPython from 3.9 on, on
# this OS and architecture; installing it (`pip install dist/pjlab-*.whl`, into any virtual
# environment, on any such machine) needs no Rust toolchain and takes seconds.
#
#   scripts/build-wheel.sh [OUT_DIR=dist]
#
# The build shares the workspace's compiled dependencies (Burn, tract, parquet) in
# ${CARGO_TARGET_DIR:-target}: after the main job's build (`cargo run --release -p pjlab-cli`),
# only the Python crate and PyO3 are compiled. Maturin comes from .venv-build (made on first
# use, pinned as in python/requirements-test.txt), or from .venv-python when it has one.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)

maturin=.venv-python/bin/maturin
if [ ! -x "$maturin" ]; then
  venv=.venv-build
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  pin=$(grep -E '^maturin==' python/requirements-test.txt)
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$pin"
  maturin=$venv/bin/maturin
fi
maturin=$(cd "$(dirname "$maturin")" && pwd)/$(basename "$maturin")

# Only this build's wheel in the folder's listing below: an older one of the same name is
# replaced by maturin, others are left alone.
(cd python && "$maturin" build --release --quiet --out "$out")
wheel=$(ls -t "$out"/pjlab-*.whl | head -n 1)
echo "built $wheel"
echo "install it into any virtual environment: pip install $wheel"
