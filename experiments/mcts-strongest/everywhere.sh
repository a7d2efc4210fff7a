#!/usr/bin/env bash
# The long run's network plays everywhere the old one does (README, "It plays everywhere"): each
# of the lab's consumers of a network, given checkpoint 4000 (and its hybrid where the consumer
# takes an agent spec), writes what it wrote under everywhere/, with the command above each
# output in everywhere/log.md. A consumer that fails stops the script (set -e): what is in log.md
# then is what ran.
#
#   experiments/mcts-strongest/everywhere.sh [CHECKPOINT]
#
# CHECKPOINT defaults to carry/checkpoints/iter-4000. The Python step needs the package built in
# .venv-python (scripts/test-python.sh makes it); without it, log.md says it was not run.
# The ONNX step runs scripts/onnx_best_move.py in .venv-onnx, which it makes from
# scripts/requirements-onnx.txt when missing (pip needs the package index once).
set -euo pipefail
cd "$(dirname "$0")/../.."
E=experiments/mcts-strongest
ckpt=${1:-$E/carry/checkpoints/iter-4000}
[ -f "$ckpt/model.bpk" ] || { echo "everywhere.sh: no checkpoint $ckpt" >&2; exit 1; }
PJLAB=${PJLAB:-target/release/pjlab}
out=$E/everywhere
rm -rf "$out"
mkdir -p "$out"
sweep=experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue
net="net:checkpoint=$ckpt,reuse=1,batch=8,cpuct=2.5"
hybrid="$net,leaf=nnue-int:$sweep,leaf_depth=0,leaf_share=0.5"
log=$out/log.md
{
  echo "# The long run's network in every consumer"
  echo
  echo "Written by \`experiments/mcts-strongest/everywhere.sh\` with \`$("$PJLAB" --version)\`,"
  echo "checkpoint \`$ckpt\`."
} > "$log"

# step NAME FILE COMMAND...: runs COMMAND, its standard output into FILE, and logs both.
step() {
  local name=$1 file=$2
  shift 2
  "$@" > "$out/$file"
  {
    echo
    echo "## $name"
    echo
    echo '```'
    echo "$*"
    echo '```'
    echo
    echo "Output: \`$file\` ($(wc -l < "$out/$file") lines); its last line: \`$(tail -n 1 "$out/$file")\`"
  } >> "$log"
}

# A game against the learned alpha-beta, plain and hybrid; each record replayed and shown.
for who in net hybrid; do
  spec=${!who},time=100ms
  step "play ($who)" "play-$who.txt" "$PJLAB" play --white "$spec" \
    --black "alphabeta:eval=nnue-int:$sweep,time=100ms" --seed 1
  step "replay ($who)" "replay-$who.txt" "$PJLAB" replay "$out/play-$who.txt"
  step "show ($who)" "show-$who.log" "$PJLAB" show "$out/play-$who.txt" \
    --out "$out/show-$who.html"
done
step "analyse" analyse.json "$PJLAB" analyse --agent "$net,time=100ms" --json
step "match" match.txt "$PJLAB" match --a "$net,time=100ms" --b "$hybrid,time=100ms" \
  --games 2 --seed 1 --workers 1 --out "$out/match"
step "tournament" tournament.txt "$PJLAB" tournament --agents "$net,time=50ms" \
  --agents "$hybrid,time=50ms" --agents alphabeta:depth=2 --games 2 --seed 1 --workers 1 \
  --out "$out/tournament"
step "balance" balance.txt "$PJLAB" balance --agent "$net,time=50ms" --games-per-variant 2 \
  --variants classic,half-random --seed 1 --workers 1 --out "$out/balance"
# A client waits for `bestmove` before `quit` (which stops a search at once): the script gives
# the search 5 s, far more than its 800 simulations take.
# An atlas of two levels (the network at a fixed simulation budget, as atlas levels are
# budgeted, and alpha-beta at one ply), 2 games a cell and 2 a ladder pair.
cat > "$out/atlas-spec.toml" <<SPEC
game = "pijersi"
seed = 1
[[levels]]
name = "ab1"
agent = "alphabeta:depth=1"
about = "alpha-beta, 1 ply"
[[levels]]
name = "long-4000"
agent = "$net,sims=400"
about = "the long run's checkpoint 4000, 400 simulations a move"
[[protocols]]
name = "plies"
about = "two opening plies"
[[protocols.runs]]
variants = ["classic"]
games_per_variant = 2
opening_plies = 2
[ladder]
games_per_pair = 2
variants = ["classic"]
opening_plies = 2
after = "long-4000"
SPEC
step "atlas" atlas.txt "$PJLAB" atlas run --spec "$out/atlas-spec.toml" --out "$out/atlas" \
  --workers 1
step "UGI" ugi.txt "$PJLAB" ugi < <(printf '%s\n' ugi "setoption name Engine value mcts" \
  "setoption name Checkpoint value $ckpt" isready uginewgame "position startpos" "go nodes 800"
  sleep 5
  echo quit)
step "export" export.txt "$PJLAB" export --checkpoint "$ckpt" --out "$out/model.onnx"
onnx=.venv-onnx/bin/python
if ! "$onnx" -c 'import onnxruntime' 2> /dev/null; then
  python3 -m venv .venv-onnx
  "$onnx" -m pip install --quiet --disable-pip-version-check -r scripts/requirements-onnx.txt || true
fi
if "$onnx" -c 'import onnxruntime' 2> /dev/null; then
  step "ONNX runtime" onnx.json "$onnx" scripts/onnx_best_move.py "$out/model.onnx" \
    --pjlab "$PJLAB" \
    --psn 's-p-r-s-p-r-/p-r-s-wwr-s-p-/6/7/6/P-S-R-WWS-R-P-/R-P-S-R-P-S- w 0 1'
else
  printf '\n## ONNX runtime\n\nNot run: onnxruntime did not install in .venv-onnx.\n' >> "$log"
fi
py=.venv-python/bin/python
if [ -x "$py" ] && "$py" -c 'import pjlab' 2> /dev/null; then
  step "Python" python.txt "$py" -c "
import pjlab
agent = pjlab.Agent('$net,time=100ms', 'pijersi')
state = pjlab.load_game('pijersi').new_initial_state(seed=1)
action = agent.choose(state)
print(action, state.action_to_string(state.current_player(), action))
"
else
  printf '\n## Python\n\nNot run: the package is not built in .venv-python (scripts/test-python.sh).\n' >> "$log"
fi
rm -f "$out/model.onnx"
echo "everywhere.sh: $log"
