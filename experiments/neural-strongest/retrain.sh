#!/bin/sh
# Trains the committed learned evaluations again with a clean build and compares them with the
# committed files. The networks of train.sh (this directory) and ../nnue-first/train.sh were
# trained by builds with uncommitted changes (each card's provenance: `"dirty": true`); this
# checks that a clean build, from the same data and commands, gives the same networks: every
# weight, the pass kept and every pass's losses (the cards' provenance and the temporary data
# path aside). ../nnue-first's first-round networks (net-32 and the others trained for 30
# passes on a random held-out split) came from an earlier trainer and are not retrained here.
#
# Usage, from the repository root (a few minutes on one core; one line a network, and a failure
# if one differs; retrain.txt is its output with the clean build of commit 1dca9f6):
#   PJLAB=target/release/pjlab experiments/neural-strongest/retrain.sh > experiments/neural-strongest/retrain.txt
set -e
PJLAB=${PJLAB:-target/release/pjlab}
"$PJLAB" --version
E=experiments/neural-strongest
O=experiments/nnue-first/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
head -n 83835 $E/data/d4-s6.txt > "$T/d4-s6-part.txt"
OLD="--data $O/d4-s1.txt --data $O/d4-s2.txt --data $O/d4-r25-s3.txt --data $O/d4-leaf-s4.txt --data $O/d4-s5.txt"
NEW="--data $T/d4-s6-part.txt"
train() { # OUT COMMITTED ARGS...
  out=$1 committed=$2
  shift 2
  "$PJLAB" nnue train --game pijersi "$@" --epochs 12 --out "$T/$out.json" > "$T/$out.log" 2>&1 ||
    { cat "$T/$out.log"; exit 1; }
  python3 - "$T/$out.json" "$committed" <<'EOF'
import json, sys
fresh, committed = (json.load(open(p)) for p in sys.argv[1:])
a, b = fresh["card"]["training"], committed["card"]["training"]
same = fresh["network"] == committed["network"] and all(
    a.get(k) == b.get(k) for k in ("losses", "kept_epoch", "positions", "options")
)
print(f"{sys.argv[2]}: {'the same' if same else 'DIFFERENT'} (committed by commit "
      f"{b['provenance']['commit']}{'-dirty' if b['provenance'].get('dirty') else ''})")
sys.exit(0 if same else 1)
EOF
}
R="--residual --hidden 32 --l2 8"
train all6-32r $E/nets/all6-32r.json $OLD $NEW $R
train s6-32r $E/nets/s6-32r.json $NEW $R
train all6-64r $E/nets/all6-64r.json $OLD $NEW --residual --hidden 64 --l2 16
train all6-32r-wd5 $E/nets/all6-32r-wd5.json $OLD $NEW $R --weight-decay 5
train all6-32r-quiet $E/nets/all6-32r-quiet.json $OLD $NEW $R --quiet
# ../nnue-first/train.sh's second and third rounds (the held-out split by game).
train root-32r-es experiments/nnue-first/nets/root-32r-es.json \
  --data $O/d4-s1.txt --data $O/d4-s2.txt --data $O/d4-r25-s3.txt $R
train root-32-es experiments/nnue-first/nets/root-32-es.json \
  --data $O/d4-s1.txt --data $O/d4-s2.txt --data $O/d4-r25-s3.txt --hidden 32 --l2 8
train leaf-32r-es experiments/nnue-first/nets/leaf-32r-es.json --data $O/d4-leaf-s4.txt $R
train all-32r-es experiments/nnue-first/nets/all-32r-es.json \
  --data $O/d4-s1.txt --data $O/d4-s2.txt --data $O/d4-r25-s3.txt --data $O/d4-leaf-s4.txt $R
train all5-32r-es experiments/nnue-first/nets/all5-32r-es.json $OLD $R
