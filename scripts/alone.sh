#!/usr/bin/env bash
# Runs one command with the machine to itself: every process at nice 10 or more (the long runs
# at `nice -n 19`: the atlas, the generations) is paused first (SIGSTOP) and continued after
# (SIGCONT), also when the command fails or is interrupted. A paused run keeps every game it
# played; its budgets are fixed, so the pause changes none of its games.
#
#   scripts/alone.sh experiments/rating-list/run.sh
#
# Equal-time matches want this: the runs at nice 19 take little of the CPU from them, but not
# none (and nothing of the caches they share).
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi
# Kernel threads (children of kthreadd, pid 2) are left out.
mapfile -t paused < <(ps --ppid 2 -p 2 --deselect -o pid=,ni= | awk -v self=$$ '$2 != "-" && $2 >= 10 && $1 != self { print $1 }')
resume() {
  if [ ${#paused[@]} -gt 0 ]; then
    kill -CONT "${paused[@]}" 2>/dev/null || true
    echo "alone.sh: continued ${#paused[@]} paused process(es)" >&2
  fi
}
trap resume EXIT
if [ ${#paused[@]} -gt 0 ]; then
  kill -STOP "${paused[@]}" 2>/dev/null || true
  echo "alone.sh: paused ${#paused[@]} process(es) at nice 10 or more: ${paused[*]}" >&2
fi
"$@"
