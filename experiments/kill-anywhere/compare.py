"""Compare two finished run directories of the same run: the uninterrupted one and the one
killed and resumed. Prints one line per difference (nothing when they are equal) and exits 1
when any remains.

What is compared, file by file (the union of both directories' files):
- Parquet: every row and every column (pyarrow), and the file's key-value metadata except
  `pjlab.clocks` (the moves' wall-clock times) and `pjlab.provenance` (the process that wrote
  the file: its command line, build and start);
- JSON and JSON lines: the values, without wall-clock keys (see TIMED_KEY) and without the
  provenance of the invocations that wrote them (PROVENANCE_KEYS; the same inside Parquet
  metadata);
- CSV: every column but the timed ones (`*_ms*`, `*_s`);
- Markdown, text, HTML, SVG, TOML: every line but the timing and provenance lines (TIMED_LINE);
- `.nnue` files (JSON): the values, without wall-clock keys;
- Markdown tables: without their timed columns (TIMED_COLUMN: `(ms)`, `(s)`, `CPU-h`);
- anything else (`.onnx`): the bytes.
Plots of wall-clock or CPU time (TIMED_FILES) are not compared.
Not compared: `.lock` (a process id), `provenance.jsonl` (one line per invocation, so a resumed
run has more), Burn's `model.bpk` and `optimizer.bpk` (they hold per-process parameter ids; the
weights are compared through `pjlab export`, whose ONNX files are written beside the runs and
compared as bytes). Temporary files a kill left behind are reported on their own line
("leftover"), not as differences.
"""

import json
import re
import sys
from pathlib import Path

import pyarrow.parquet as pq

SKIP_NAMES = {".lock", "provenance.jsonl", "model.bpk", "optimizer.bpk"}
# Plots whose axis is wall-clock or CPU time.
TIMED_FILES = {"plots/elo.svg"}
TIMED_COLUMN = re.compile(r"\((ms|s)\)|CPU|elapsed|time|seconds|per s", re.IGNORECASE)
TEMPORARY = re.compile(r"^\.pjlab-.*|.*\.tmp$")
TIMED_KEY = re.compile(
    r"(_s|_ms|_ns|per_s|seconds|elapsed.*|started|finished|load_start|load_end|command|"
    r"wall.*|clocks?|cpu)$"
)
TIMED_LINE = re.compile(
    r"(Command:|run by|started|seconds|elapsed|[0-9.]+ ?ms\b|ms a move|per second|/s\b|"
    r"load [0-9.]+|CPU|wall|took|time a move|\bmin\b|[0-9]h[0-9])",
    re.IGNORECASE,
)


# Provenance inside records: the sessions (invocations) that wrote a run, one more per resume
# that saved (a tournament's `pjlab.arena.sessions`).
PROVENANCE_KEYS = {"sessions", "provenance"}


def untimed(value):
    if isinstance(value, dict):
        return {
            k: untimed(v)
            for k, v in value.items()
            if not TIMED_KEY.search(k) and k not in PROVENANCE_KEYS
        }
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def parquet(path):
    table = pq.read_table(path)
    meta = pq.read_metadata(path).metadata or {}
    kept = {}
    for key, value in meta.items():
        key = key.decode()
        if key in {"pjlab.clocks", "pjlab.provenance"} or TIMED_KEY.search(key):
            continue
        try:
            kept[key] = untimed(json.loads(value))
        except ValueError:
            kept[key] = value
        if key == "pjlab.efforts":
            # [side, microseconds spent, depth, nodes, effort] a decision: the time goes.
            kept[key] = {g: [m[:1] + m[2:] for m in moves] for g, moves in kept[key].items()}
    return {"rows": table.to_pylist(), "metadata": kept}


def jsonl(path):
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(untimed(json.loads(line)))
        except ValueError:
            out.append(("unparsable line", line))
    return out


def csv(path):
    lines = path.read_text().splitlines()
    if not lines:
        return []
    header = lines[0].split(",")
    keep = [i for i, name in enumerate(header) if not TIMED_KEY.search(name) and "_ms" not in name]
    # Quoted commas do not occur in the lab's CSV headers; cells are split the same way on
    # both sides, so a quoted comma only shifts columns identically.
    return [[row.split(",")[i] for i in keep if i < len(row.split(","))] for row in lines]


def text(path):
    """The lines without timing; in a Markdown table, without its timed columns too."""
    out, timed_columns, in_table = [], set(), False
    for line in path.read_text().splitlines():
        if line.startswith("|"):
            cells = line.strip().strip("|").split("|")
            if not in_table:
                timed_columns = {i for i, c in enumerate(cells) if TIMED_COLUMN.search(c)}
                in_table = True
            line = "|".join(c for i, c in enumerate(cells) if i not in timed_columns)
        else:
            in_table = False
        if not TIMED_LINE.search(line):
            out.append(line)
    return out


def load(path):
    suffix = path.suffix
    if suffix == ".parquet":
        return parquet(path)
    if suffix in {".json", ".nnue"}:
        return untimed(json.loads(path.read_text()))
    if suffix == ".jsonl":
        return jsonl(path)
    if suffix == ".csv":
        return csv(path)
    if suffix in {".md", ".txt", ".html", ".svg", ".toml"}:
        return text(path)
    return path.read_bytes()


def first_difference(a, b, where=""):
    """A short description of where two loaded values first differ."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{where}.{k}: only in {'one' if k in a else 'the other'}"
            if a[k] != b[k]:
                return first_difference(a[k], b[k], f"{where}.{k}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{where}[{i}]")
    if isinstance(a, bytes):
        return f"{where}: bytes differ ({len(a)} vs {len(b)})"
    return f"{where}: {str(a)[:120]!r} vs {str(b)[:120]!r}"


def files(root):
    return {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.name not in SKIP_NAMES
        and p.relative_to(root).as_posix() not in TIMED_FILES
    }


def main():
    a, b = Path(sys.argv[1]), Path(sys.argv[2])
    differences = 0
    names_a, names_b = files(a), files(b)
    for name in sorted(names_a | names_b):
        base = name.rsplit("/", 1)[-1]
        if TEMPORARY.match(base):
            side = "killed" if name in names_b else "uninterrupted"
            print(f"leftover ({side} run): {name}")
            continue
        if name not in names_a or name not in names_b:
            print(f"differs: {name}: only in the {'uninterrupted' if name in names_a else 'killed'} run")
            differences += 1
            continue
        x, y = load(a / name), load(b / name)
        if x != y:
            print(f"differs: {name}{first_difference(x, y)}")
            differences += 1
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
