#!/usr/bin/env bash
# What keeping networks between requests buys `pjlab serve`: the time of a `/bestmove` request
# to the MCTS network (`net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint`) at 20 ms a
# move, as curl sees it, for two binaries in alternation (BEFORE reads and packs the network
# for every request; AFTER keeps it), five rounds of 10 requests each, the first request of a
# server (which reads the file in both) apart. Prints each request's seconds; the medians go
# into README.md.
#
#   scripts/alone.sh experiments/serve/cache.sh BEFORE AFTER > experiments/serve/cache.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:?usage: cache.sh BEFORE AFTER}
after=${2:?usage: cache.sh BEFORE AFTER}
port=8047
body='{"game": "pijersi", "player": "net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint", "movetime_ms": 20}'
one() {
  curl -s -o /dev/null -w '%{time_total}\n' "localhost:$port/api/v1/bestmove" \
    -H 'Content-Type: application/json' -d "$body"
}
for round in 1 2 3 4 5; do
  for which in before after; do
    bin=${!which}
    "$bin" serve --port "$port" --workers 1 > /dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do
      curl -sf "localhost:$port/api/v1/health" > /dev/null && break
      sleep 0.1
    done
    echo "$which round $round first $(one)"
    for i in $(seq 10); do
      echo "$which round $round request $i $(one)"
    done
    kill "$pid"
    wait "$pid" 2> /dev/null || true
  done
done
