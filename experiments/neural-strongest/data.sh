#!/bin/sh
# More training positions for the learned evaluation (written before the run).
# As experiments/nnue-first/data.sh's first file: alpha-beta (hand-written evaluation) at depth 4
# plays itself from classic and half-random setups in turn, 2 to 8 random opening plies, 5% of
# later moves random; every position after the opening is labelled with the depth-4 score and the
# game's result (for the side to move). Seed 6, so no game repeats the earlier files'.
# Stopping rule: 20,000 games or 150 minutes, whichever comes first; the file is written game by
# game in game order, and the games finished by then are the data. It runs at the lowest
# priority beside other work (its rate says nothing about the machine).
#
# Played by the build of the time, whose `nnue data --out FILE.txt` wrote a text file; today's
# build writes a run directory (`--out DIR`, positions.parquet inside) and refuses `.txt`, so
# replaying this script needs a build from before commit 8d5d05f, which made that change: its
# parent 92e5554 or an older one.
# `nnue train --data` still reads the text files kept here.
set -e
PJLAB=${PJLAB:-target/release/pjlab}
mkdir -p experiments/neural-strongest/data
uptime
timeout 150m nice -n 19 $PJLAB nnue data --game pijersi --depth 4 --games 20000 --seed 6 \
  --workers 2 --variants classic,half-random --opening 2-8 --random-moves 0.05 \
  --out experiments/neural-strongest/data/d4-s6.txt || true
uptime
wc -l experiments/neural-strongest/data/d4-s6.txt
# (Stopped by hand after 113 minutes, at 11,830 games and 136,132 positions, to leave the machine idle for the
# equal-time matches of run.sh; the file keeps every line written by then, the games in order.)
