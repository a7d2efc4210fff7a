#!/usr/bin/env bash
# Coverage-guided fuzzing of the lab's inputs and invariants (crates/fuzz): cargo-fuzz on the
# nightly toolchain with AddressSanitizer, at the lowest priority.
#
#   scripts/fuzz.sh TARGET MINUTES   one target for MINUTES (TARGET "all": each in turn)
#   scripts/fuzz.sh list             the targets
#   scripts/fuzz.sh table            rewrite experiments/fuzzing/README.md's table from runs.tsv
#
# Each run starts from the committed seed corpus (crates/fuzz/corpus/TARGET, read only) and a
# working corpus of its own (crates/fuzz/fuzz/corpus/TARGET, not committed), stops by itself
# after MINUTES, and appends a line to experiments/fuzzing/runs.tsv: when, target, CPU
# seconds (user and system, the build apart), inputs run, coverage (libFuzzer's edges),
# features, and the result (`ok`, or the
# crash, hang or out-of-memory file under crates/fuzz/fuzz/artifacts/TARGET/). A finding is
# fixed with a regression test of its own and its input added to the seed corpus.
# cargo-fuzz is installed on first use (`cargo install cargo-fuzz --locked`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs=experiments/fuzzing/runs.tsv
targets() { sed -n 's/^name = "\([a-z_]*\)"$/\1/p' crates/fuzz/fuzz/Cargo.toml; }

table() {
  python3 - "$runs" experiments/fuzzing/README.md $(targets) <<'PY'
import sys, collections
runs, readme, names = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = collections.OrderedDict()
for n in names:
    rows[n] = dict(s=0.0, inputs=0, cov=0, findings=[])
try:
    lines = open(runs).read().splitlines()[1:]
except FileNotFoundError:
    lines = []
for line in lines:
    when, target, secs, inputs, cov, ft, result = line.split("\t")
    r = rows.setdefault(target, dict(s=0.0, inputs=0, cov=0, findings=[]))
    r["s"] += float(secs); r["inputs"] += int(inputs); r["cov"] = max(r["cov"], int(cov))
    if result != "ok":
        r["findings"].append(result)
out = ["| target | CPU-hours | inputs | coverage | findings |", "| --- | --- | --- | --- | --- |"]
for n, r in rows.items():
    out.append(f"| `{n}` | {r['s']/3600:.2f} | {r['inputs']:,} | {r['cov']:,} | {(str(len(r['findings'])) + ' (under Findings)') if r['findings'] else 'none'} |")
total = sum(r["s"] for r in rows.values()) / 3600
out.append(f"| all | {total:.2f} | {sum(r['inputs'] for r in rows.values()):,} | | |")
text = open(readme).read()
begin, end = "<!-- table: scripts/fuzz.sh table -->", "<!-- end of table -->"
a, b = text.index(begin) + len(begin), text.index(end)
open(readme, "w").write(text[:a] + "\n" + "\n".join(out) + "\n" + text[b:])
PY
}

case "${1:-}" in
  list) targets; exit 0 ;;
  table) table; exit 0 ;;
  "" | -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
esac
[ $# -eq 2 ] || { echo "usage: scripts/fuzz.sh TARGET|all MINUTES" >&2; exit 2; }
minutes=$2
command -v cargo-fuzz > /dev/null || cargo install cargo-fuzz --locked
if [ "$1" = all ]; then
  for t in $(targets); do "$0" "$t" "$minutes"; done
  exit 0
fi
target=$1
targets | grep -qx "$target" || { echo "fuzz.sh: no target $target (scripts/fuzz.sh list)" >&2; exit 2; }
[ -f "$runs" ] || printf 'when\ttarget\tcpu_s\tinputs\tcoverage\tfeatures\tresult\n' > "$runs"
cd crates/fuzz
mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
log=$(mktemp)
cpu=$(mktemp)
# Built first, so that the run's CPU time is the fuzzer's alone.
nice -n 19 cargo +nightly fuzz build --release "$target" > "$log" 2>&1 || { cat "$log" >&2; exit 1; }
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
set +e
nice -n 19 /usr/bin/time -o "$cpu" -f '%U %S' \
  cargo +nightly fuzz run --release "$target" "$root/crates/fuzz/fuzz/corpus/$target" \
  "$root/crates/fuzz/corpus/$target" -- \
  -max_total_time=$((minutes * 60)) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$root/crates/fuzz/fuzz/artifacts/$target/" > "$log" 2>&1
status=$?
set -e
# CPU seconds (user and system) of the run, whatever else the machine was doing.
secs=$(tail -1 "$cpu" | awk '{printf "%d", $1 + $2}')
rm -f "$cpu"
inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
cov=$( (grep -o 'cov: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
ft=$( (grep -o 'ft: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
result=ok
if [ $status -ne 0 ]; then
  artifact=$( (grep -o "fuzz/artifacts/$target/[a-z]*-[0-9a-f]*" "$log" || true) | tail -1)
  result=${artifact:-"exit $status (see the log)"}
  tail -40 "$log" >&2
fi
cd "$root"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$started" "$target" "$secs" "${inputs:-0}" "${cov:-0}" \
  "${ft:-0}" "$result" >> "$runs"
echo "fuzz.sh: $target: ${secs}s, ${inputs:-0} inputs, coverage ${cov:-0}, $result"
rm -f "$log"
table
