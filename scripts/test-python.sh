#!/usr/bin/env bash
# The Python package's tests: makes .venv-python beside this script's repository (Python 3.11
# or newer with venv: the pinned tools need it; the package itself runs on 3.9), installs the
# pinned tools of python/requirements-test.txt, builds the package (crates/python through
# maturin) into it, checks that the wheel of
# scripts/build-wheel.sh installs and plays in a fresh environment without Rust, checks that the
# sdist carries the workspace's CPU flag, builds the binary the records and arena tests run
# (`pjlab`, in ${CARGO_TARGET_DIR:-target}/release; PJLAB_BIN names it for pytest) and the stub
# engine the interrupt tests drive (`pjlab-ugi-stub`, PJLAB_UGI_STUB) and runs pytest on
# python/tests. "No tests collected" is a failure. Extra arguments go to
# pytest (e.g. -k batched).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-python
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r python/requirements-test.txt
# `maturin develop` builds the extension (release) and installs the package in place.
(cd python && VIRTUAL_ENV="$PWD/../$venv" "../$venv/bin/maturin" develop --release --quiet)

# The wheel of scripts/build-wheel.sh installs into a fresh virtual environment with nothing on
# PATH (so no Rust toolchain), and plays there.
wheels=$(mktemp -d)
fresh=$(mktemp -d)
sdists=$(mktemp -d)
trap 'rm -rf "$wheels" "$fresh" "$sdists"' EXIT
scripts/build-wheel.sh "$wheels" >/dev/null
python3 -m venv "$fresh/venv"
mkdir "$fresh/empty"
env PATH="$fresh/empty" "$fresh/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "$wheels"/pjlab-*.whl
env PATH="$fresh/empty" "$fresh/venv/bin/python" - <<'PY'
import shutil
import pjlab
assert shutil.which("cargo") is None and shutil.which("rustc") is None, "Rust on PATH"
assert pjlab.__file__.startswith(__import__("sys").prefix), pjlab.__file__
state = pjlab.load_game("abalone").new_initial_state(seed=1)
agent = pjlab.Agent("alphabeta:depth=1", "abalone")
for _ in range(6):
    state.apply_action(agent.choose(state))
assert state.move_number() == 6
print("test-python: the wheel installs and plays without a Rust toolchain")
PY

# The sdist (which pip builds wheels from where no wheel fits) keeps the workspace's CPU flag:
# maturin takes nothing above python/ but the crates, so it carries python/.cargo/config.toml,
# whose x86-64 flag must be the workspace's.
flag() { sed -n 's/^rustflags = \(.*target-cpu.*\)/\1/p' "$1"; }
if [ -z "$(flag .cargo/config.toml)" ] ||
  [ "$(flag .cargo/config.toml)" != "$(flag python/.cargo/config.toml)" ]; then
  echo "test-python: python/.cargo/config.toml's CPU flag is not the workspace's" >&2
  exit 1
fi
(cd python && "../$venv/bin/maturin" sdist --out "$sdists" >"$sdists/log" 2>&1) ||
  { cat "$sdists/log" >&2; exit 1; }
"$venv/bin/python" - "$sdists"/pjlab-*.tar.gz <<'PY'
import pathlib, sys, tarfile
with tarfile.open(sys.argv[1]) as sdist:
    names = [n for n in sdist.getnames() if n.split("/", 1)[-1] == ".cargo/config.toml"]
    assert names, "the sdist has no .cargo/config.toml"
    carried = sdist.extractfile(names[0]).read()
assert carried == pathlib.Path("python/.cargo/config.toml").read_bytes(), "another config"
print("test-python: the sdist carries the workspace's CPU flag (.cargo/config.toml)")
PY

cargo build --release --quiet -p pjlab-cli -p pjlab-ugi-stub
export PJLAB_BIN="${PJLAB_BIN:-$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/release/pjlab}"
export PJLAB_UGI_STUB="${PJLAB_UGI_STUB:-$(dirname "$PJLAB_BIN")/pjlab-ugi-stub}"

status=0
"$venv/bin/python" -m pytest -q python/tests "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "test-python: pytest collected no tests" >&2
  exit 1
fi
exit "$status"
