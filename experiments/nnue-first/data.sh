#!/bin/sh
# Training positions for the first learned evaluation (written before the run).
# Alpha-beta (hand-written evaluation) at depth 4 plays itself from classic and half-random
# setups in turn, 2 to 8 random opening plies, 5% of later moves random; every position after
# the opening is labelled with the depth-4 score and the game's result (for the side to move).
# The file is written game by game in game order; the run is stopped at 2000 games or after
# 25 minutes, whichever comes first, and the games written by then are the data.
# (A first attempt at depth 5 ran at about 5 s a game with 2 workers beside other builds on the
# 2-core machine: too slow for this session; it was stopped and its games discarded.)
#
# Played by the build of the time, whose `nnue data --out FILE.txt` wrote a text file; today's
# build writes a run directory (`--out DIR`, positions.parquet inside) and refuses `.txt`, so
# replaying this script needs a build from before commit 8d5d05f, which made that change: its
# parent 92e5554 or an older one.
# `nnue train --data` still reads the text files kept here.
set -e
PJLAB=${PJLAB:-target/release/pjlab}
mkdir -p experiments/nnue-first/data
uptime
timeout 25m nice -n 19 $PJLAB nnue data --game pijersi --depth 4 --games 2000 --seed 1 \
  --workers 2 --variants classic,half-random --opening 2-8 --random-moves 0.05 \
  --out experiments/nnue-first/data/d4-s1.txt || true
uptime
wc -l experiments/nnue-first/data/d4-s1.txt

# Second data file (started after the first match): the same settings, seed 2, stopped at
# 2000 games or 25 minutes.
timeout 25m nice -n 19 $PJLAB nnue data --game pijersi --depth 4 --games 2000 --seed 2 \
  --workers 2 --variants classic,half-random --opening 2-8 --random-moves 0.05 \
  --out experiments/nnue-first/data/d4-s2.txt || true
# (Stopped by hand at about 780 games, when the first diagnostics below pointed elsewhere; the
# file keeps the games finished in order.)

# Third data file: more random moves (25% after the opening), so that the positions include
# the lopsided ones alpha-beta's leaves meet; stopped at 1500 games or 15 minutes.
timeout 15m nice -n 19 $PJLAB nnue data --game pijersi --depth 4 --games 1500 --seed 3 \
  --workers 2 --variants classic,half-random --opening 2-8 --random-moves 0.25 \
  --out experiments/nnue-first/data/d4-r25-s3.txt || true
# (Stopped by hand at about 250 games to give the machine to the next file.)

# Fourth data file: positions at the end of each search's principal variation, labelled with
# the search's score for their side to move (what a static evaluation there should say);
# 5% random moves as in the first; stopped at 2000 games or 15 minutes.
timeout 15m nice -n 19 $PJLAB nnue data --game pijersi --depth 4 --games 2000 --seed 4 \
  --workers 2 --variants classic,half-random --opening 2-8 --random-moves 0.05 --pv-leaf \
  --out experiments/nnue-first/data/d4-leaf-s4.txt || true

# Fifth data file (played last; used by nets/all5-32r-es.json): as the first, seed 5,
# stopped at 3000 games or 25 minutes.
timeout 25m nice -n 19 $PJLAB nnue data --game pijersi --depth 4 --games 3000 --seed 5 \
  --workers 2 --variants classic,half-random --opening 2-8 --random-moves 0.05 \
  --out experiments/nnue-first/data/d4-s5.txt || true
