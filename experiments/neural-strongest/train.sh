#!/bin/sh
# The learned evaluations of this directory (written before they were trained). Data: the five
# files of ../nnue-first/data (83,453 positions) and data/d4-s6-part.txt, the part of this
# directory's data.sh run written when training started (whole games, in game order; the file
# cut at its last complete line). Every network holds out the last 5% of the positions (the
# last games) and keeps the pass with the lowest held-out loss out of 12.
# Four networks, chosen before any was played: the design that did best in ../nnue-first
# (residual, 32x2-8-1) on all the data; the same on the new data alone; a wider one (64x2-16-1),
# which more data may now support; and the residual 32 with weight decay 5, which held the
# correction back best on the small data.
set -e
PJLAB=${PJLAB:-target/release/pjlab}
E=experiments/neural-strongest
O=experiments/nnue-first/data
N=$E/nets
mkdir -p $N
# The part read (not committed: the first lines of data/d4-s6.txt).
head -n 83835 $E/data/d4-s6.txt > $E/data/d4-s6-part.txt
OLD="--data $O/d4-s1.txt --data $O/d4-s2.txt --data $O/d4-r25-s3.txt --data $O/d4-leaf-s4.txt --data $O/d4-s5.txt"
$PJLAB nnue train --game pijersi $OLD --data $E/data/d4-s6-part.txt --residual --hidden 32 --l2 8 --epochs 12 --out $N/all6-32r.json
$PJLAB nnue train --game pijersi --data $E/data/d4-s6-part.txt --residual --hidden 32 --l2 8 --epochs 12 --out $N/s6-32r.json
$PJLAB nnue train --game pijersi $OLD --data $E/data/d4-s6-part.txt --residual --hidden 64 --l2 16 --epochs 12 --out $N/all6-64r.json
$PJLAB nnue train --game pijersi $OLD --data $E/data/d4-s6-part.txt --residual --hidden 32 --l2 8 --epochs 12 --weight-decay 5 --out $N/all6-32r-wd5.json

# Added after the first diagnostic (all6-32r: 43.5% at depth 3, below the hand-written
# evaluation again): the same network trained on quiet positions only (no tactical move for the
# side to move), where quiescence stands pat and a static judgement is used; the score of a
# position with a capture pending is the capture's, which a static evaluation should not learn.
$PJLAB nnue train --game pijersi $OLD --data $E/data/d4-s6-part.txt --residual --hidden 32 --l2 8 --epochs 12 --quiet --out $N/all6-32r-quiet.json
