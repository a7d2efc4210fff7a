#!/usr/bin/env bash
# The real-browser test of `pjlab serve` (scripts/browser/play.mjs): Debian's Chromium driven by
# playwright-core from npm (pinned by scripts/browser/package-lock.json). Installs what is
# missing, once: Chromium with apt (as root, or through sudo), playwright-core with npm ci. Then
# plays a whole game by clicks against alphabeta:depth=1 and replays the downloaded record.
# SHOTS=DIR also saves screenshots of the page's states there.
set -euo pipefail
cd "$(dirname "$0")/.."

browser="${PJLAB_CHROMIUM:-}"
if [ -z "$browser" ]; then
  browser="$(command -v chromium || command -v chromium-browser || true)"
fi
if [ -z "$browser" ]; then
  echo "test-browser: installing Chromium (apt)" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
  browser="$(command -v chromium)"
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "test-browser: installing Node.js and npm (apt)" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -d scripts/browser/node_modules/playwright-core ]; then
  (cd scripts/browser && npm ci --no-audit --no-fund --silent)
fi

pjlab="${CARGO_TARGET_DIR:-target}/release/pjlab"
if [ ! -x "$pjlab" ]; then
  cargo build --release -p pjlab-cli
fi
if [ -n "${SHOTS:-}" ]; then mkdir -p "$SHOTS"; fi
node scripts/browser/play.mjs "$pjlab" "$browser"
