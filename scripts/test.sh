#!/usr/bin/env bash
# The lab's tests, everything the README's test command promises: the Rust workspace (release
# mode: perft and search tests are hot), the web app in a browser, then scripts/ray/lab.py on a
# local Ray instance (a training run with two actors, a sharded balance study, killed actors and
# learners). Ray and pytest go into .venv-ray beside this script's repository on first use
# (Python 3.11 or newer with venv; on Debian, apt install python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

# The Python package and the binary, each built alone, share the workspace's compiled
# dependencies only while their features agree (crates/workspace-hack).
scripts/check-features.sh
cargo test --workspace --release
# The Python package (crates/python through maturin) and its pytest suite, in .venv-python.
scripts/test-python.sh
# The binary lab.py runs (already built by the tests above; this only makes sure).
cargo build --release -p pjlab-cli
# `pjlab serve`'s page in a real browser: Debian's Chromium driven by playwright-core (both
# installed on first use), a whole game by clicks, its downloaded record replayed.
scripts/test-browser.sh

venv=.venv-ray
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/ray/requirements.txt
"$venv/bin/python" -m pytest -q scripts/ray
