#!/usr/bin/env bash
# Alpha-beta's nodes a second with the learned evaluation on tracked positions (`nnue`, as
# `alphabeta:eval=nnue:FILE` runs it) and with the hand-written evaluation (`hand`), an older
# commit against the working tree, side by side in one run:
#
#     scripts/bench-nnue.sh [BASE] [ROUNDS] [DEPTH] [NET] > OUT
#
# BASE (default `main`) is built from `git archive BASE` in a temporary directory with this
# tree's `crates/nnue/examples/search_speed.rs` and `shared/` copied in (they use only what
# both have), the
# working tree as it is, into $CARGO_TARGET_DIR (default `target`); the base into its own
# directory `bench-base` inside it (one target directory for both would mix their workspace
# crates, which have the same names and hashes, and cargo's fingerprints would then keep the
# first one built for both). Then ROUNDS (5) rounds
# alternate the two binaries, old first, each searching the example's 32 positions (plies 6 and
# 12 of 16 seeded random games, classic and half-random setups) to DEPTH (5) plies with each
# evaluation, then the working tree's `search_speed_int` with the network in integers
# (`quant`, as `eval=nnue-int:FILE`: other values, so other node counts); at the end, once,
# how far the integer network's evaluations are from the float one's (`diff`). Each line is one binary's one measurement; the summary gives, per binary and
# evaluation, the median nodes a second by wall-clock time and by the thread's processor time
# (which other work on a busy machine does not inflate), and whether node counts and score
# checksums are the same in every run of both binaries (the same search).
set -euo pipefail

repo=$(git rev-parse --show-toplevel)
base=${1:-main}
rounds=${2:-5}
depth=${3:-5}
net=${4:-$repo/experiments/neural-strongest/nets/all6-32r-quiet.json}
target=${CARGO_TARGET_DIR:-$repo/target}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/base"
git -C "$repo" archive "$base" | tar -x -C "$work/base"
mkdir -p "$work/base/crates/nnue/examples"
cp -r "$repo/crates/nnue/examples/search_speed.rs" "$repo/crates/nnue/examples/shared" \
    "$work/base/crates/nnue/examples/"
(cd "$work/base" && CARGO_TARGET_DIR=$target/bench-base nice -n 19 cargo build --release \
    --quiet -p pjlab-nnue --example search_speed)
cp "$target/bench-base/release/examples/search_speed" "$work/old"
(cd "$repo" && CARGO_TARGET_DIR=$target nice -n 19 cargo build --release --quiet \
    -p pjlab-nnue --example search_speed --example search_speed_int)
cp "$target/release/examples/search_speed" "$work/new"
cp "$target/release/examples/search_speed_int" "$work/new-int"

dirty=$(git -C "$repo" status --porcelain --untracked-files=no | grep -q . && echo " (with uncommitted changes)" || true)
echo "# scripts/bench-nnue.sh $base $rounds $depth ${net#"$repo"/}"
echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "# old: $base = $(git -C "$repo" rev-parse --short "$base")"
echo "# new: $(git -C "$repo" rev-parse --short HEAD)$dirty"
echo "# cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) processors, $(lscpu | sed -n 's/^Flags:.*\(avx512f\).*/avx-512 present/p')"
echo "# target: $(sed -n '/^\[build\]/,/^\[/s/^rustflags = //p' "$repo/.cargo/config.toml" 2>/dev/null)"
echo "# load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    for which in old new; do
        "$work/$which" "$net" "$depth" hand,nnue | sed "s/^/$which round $round /"
    done
    "$work/new-int" "$net" "$depth" quant | sed "s/^/new round $round /"
done | tee "$work/runs"
"$work/new-int" "$net" "$depth" diff | sed "s/^/# /"
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "# medians over $rounds rounds (nodes/s by wall clock, by processor time)"
awk '
    function median(list,    a, n, i, j, t) {
        n = split(list, a, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    {
        # old round 1 nnue depth 5 positions 32 nodes N secs S cpu C nps X cpu_nps Y checksum K
        key = $1 " " $4
        for (i = 5; i < NF; i++) v[$i] = $(i + 1)
        nps[key] = nps[key] " " v["nps"]
        cpu[key] = cpu[key] " " v["cpu_nps"]
        search = v["nodes"] " " v["checksum"]
        if (!($4 in seen)) seen[$4] = search
        else if (seen[$4] != search) differ[$4] = 1
    }
    END {
        for (e in seen) {
            o = "old " e; n = "new " e
            if (o in nps) {
                printf "%-5s old %9.0f %9.0f   new %9.0f %9.0f   new/old %.3f %.3f   nodes and scores %s\n",
                    e, median(nps[o]), median(cpu[o]), median(nps[n]), median(cpu[n]),
                    median(nps[n]) / median(nps[o]), median(cpu[n]) / median(cpu[o]),
                    (e in differ) ? "DIFFER" : "equal (" seen[e] ")"
            } else {
                printf "%-5s old %9s %9s   new %9.0f %9.0f   (new only; nodes and scores %s)\n",
                    e, "-", "-", median(nps[n]), median(cpu[n]),
                    (e in differ) ? "DIFFER between rounds" : "the same every round (" seen[e] ")"
            }
        }
    }' "$work/runs" | sort
