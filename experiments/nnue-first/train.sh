#!/bin/sh
# The networks of this directory, in the order they were trained (each takes seconds).
set -e
PJLAB=${PJLAB:-target/release/pjlab}
D=experiments/nnue-first/data
N=experiments/nnue-first/nets

# First round, on d4-s1 only, 30 passes, keeping the last; the held-out 5% was then a random
# share of the positions (positions of one game on both sides of the split: see README).
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --hidden 32 --l2 8 --epochs 30 --out $N/net-32.json
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --hidden 64 --l2 16 --epochs 30 --out $N/net-64.json
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --hidden 32 --l2 8 --epochs 30 --residual --out $N/net-32r.json
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --hidden 32 --l2 8 --epochs 30 --no-forced --out $N/net-32-noforced.json
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --hidden 32 --l2 8 --epochs 30 --no-forced --residual --out $N/net-32r-noforced.json
# net-32r-zero.json: net-32r.json with its output weights and bias set to zero (the
# hand-written evaluation through the network's plumbing), edited by hand.

# Second round: the last 5% of the positions held out (the last games), the pass with the
# lowest held-out loss kept out of 12.
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --data $D/d4-s2.txt --data $D/d4-r25-s3.txt \
  --residual --hidden 32 --l2 8 --epochs 12 --out $N/root-32r-es.json
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --data $D/d4-s2.txt --data $D/d4-r25-s3.txt \
  --hidden 32 --l2 8 --epochs 12 --out $N/root-32-es.json
$PJLAB nnue train --game pijersi --data $D/d4-leaf-s4.txt \
  --residual --hidden 32 --l2 8 --epochs 12 --out $N/leaf-32r-es.json
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --data $D/d4-s2.txt --data $D/d4-r25-s3.txt \
  --data $D/d4-leaf-s4.txt --residual --hidden 32 --l2 8 --epochs 12 --out $N/all-32r-es.json

# Third round, with the fifth data file (83k positions).
$PJLAB nnue train --game pijersi --data $D/d4-s1.txt --data $D/d4-s2.txt --data $D/d4-r25-s3.txt \
  --data $D/d4-leaf-s4.txt --data $D/d4-s5.txt --residual --hidden 32 --l2 8 --epochs 12 \
  --out $N/all5-32r-es.json
