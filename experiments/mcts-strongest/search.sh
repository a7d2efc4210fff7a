#!/usr/bin/env bash
# Search changes on a fixed network, each an SPRT match at 100 ms a move. Written before any of
# its games; every block is reported whatever it decides.
#
#   scripts/alone.sh experiments/mcts-strongest/search.sh BLOCK
#
# The network: experiments/pijersi-vs-alphabeta/checkpoint (the rating lists' `mcts-net`), held
# fixed. Each block plays the candidate (the baseline plus one change) against the baseline:
#   - SPRT of "the candidate is at least 20 Elo better" (H0 0 Elo, H1 20 Elo, 5% error rates,
#     `pjlab match --sprt-elo 20`), stopped when it decides, or undecided at 2,000 games;
#   - colour pairs on classic and half-random setups in turn, 2 random opening plies within 30
#     centi-units of the best, seed 6400 + the block's number;
#   - 100 ms a move each, 2 workers (one core each), the machine otherwise idle (alone.sh pauses
#     the long runs at nice 19).
# A block that accepts H1 puts its change into the baseline of the blocks after it; one that
# accepts H0 or stays undecided leaves the baseline as it was.
#
# Blocks, in order:
#   1 reuse: keep the subtree of the move played and the reply between moves (reuse=1)
#   1b reuse again, after the fix that block 1 showed was needed: block 1's candidate moved its
#     kept tree to the new root outside its 100 ms (265 of its 1,166 moves took over 110 ms),
#     so block 1 does not count; from the commit that adds this block on, the move's time counts from the
#     decision's start. Same options as block 1, seed 6411. Written after block 1 and before
#     any game of its own.
#   2 batch: 8 leaves a network call under virtual loss (batch=8)
#   3 cpuct: PUCT's constant 2.5 instead of 1.5 (cpuct=2.5)
#   4 fpu: first-play urgency 0.4 instead of 0.2 (fpu=0.4)
#   5 together: every change accepted by blocks 1b to 4 against the player without any, a fixed
#     400 games (no SPRT: an SPRT that stops early overstates its effect, and this block is the
#     figure of what the search changes bought together), seed 6405. Written before block 4
#     ended.
#   6 leaf: a hybrid with the learned evaluation: half of each leaf's value from
#     sweep-r3-lr-0.0001's static evaluation in integers (leaf=nnue-int:...,leaf_depth=0,
#     leaf_share=0.5), the other half and every prior from the network, against blocks 1b-3's
#     baseline (block 4 accepted H0). Seed 6406. Written after block 5 and before any game of
#     its own.
set -euo pipefail
cd "$(dirname "$0")/../.."
block=${1:?usage: search.sh BLOCK (1, 1b, 2, 3, 4, 5, 6)}
PJLAB=${PJLAB:-target/release/pjlab}
net="net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint"
E=experiments/mcts-strongest/search
# The baseline of each block: the changes accepted before it (kept up to date as blocks end:
# block 1b accepted reuse=1, block 2 batch=8, block 3 cpuct=2.5).
case $block in
  1 | 1b) baseline="" ;;
  2) baseline=",reuse=1" ;;
  3) baseline=",reuse=1,batch=8" ;;
  *) baseline=",reuse=1,batch=8,cpuct=2.5" ;;
esac
case $block in
  1) name=reuse change=",reuse=1" ;;
  1b) name=reuse change=",reuse=1" ;;
  2) name=batch change=",batch=8" ;;
  3) name=cpuct change=",cpuct=2.5" ;;
  4) name=fpu change=",fpu=0.4" ;;
  5) name=together change="" ;;
  6) name=leaf change=",leaf=nnue-int:experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue,leaf_depth=0,leaf_share=0.5" ;;
  *) echo "no block $block" >&2; exit 2 ;;
esac
out="$E/$block-$name"
case $block in
  1b) seed=6411 ;;
  *) seed=$((6400 + block)) ;;
esac
if [ -f "$out/games.parquet" ]; then
  exec "$PJLAB" match --out "$out" --resume --workers 2
fi
if [ "$block" = 5 ]; then
  # The baseline of block 5 is every accepted change (block 4's baseline, plus its change if
  # block 4 accepts H1: set here once block 4 has ended).
  together=",reuse=1,batch=8,cpuct=2.5"
  exec "$PJLAB" match --a "$net$together" --b "$net" --time-per-move 100ms \
    --games 400 --variants classic,half-random --opening-plies 2 \
    --seed "$seed" --workers 2 --out "$out"
fi
"$PJLAB" match --a "$net$baseline$change" --b "$net$baseline" --time-per-move 100ms \
  --games 2000 --sprt-elo 20 --variants classic,half-random --opening-plies 2 \
  --seed "$seed" --workers 2 --out "$out"
