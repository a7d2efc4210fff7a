#!/usr/bin/env python3
"""Checks that every signature figure of `pjlab bench --json` (the counts that fix what was
computed, not how fast) is the same in every DIR/before-*.json and DIR/after-*.json run, and
prints them. Exit code 1 when one differs. Standard library only.

    signatures.py DIR
"""
import glob
import json
import sys

# Figure names that count things rather than time them.
MARKERS = ("leaves", "nodes", "signature", "plies", "tree", "p_positions", "decisions",
           "games_finished", "count")


def figures(path):
    with open(path, encoding="utf-8") as f:
        run = json.load(f)
    data = run.get("figures", run)
    return {k: v for k, v in data.items()
            if isinstance(v, (int, float)) and any(m in k for m in MARKERS)
            and "per_s" not in k and "per_second" not in k and not k.endswith("_s")
            and not k.endswith("seconds")}


def main():
    d = sys.argv[1]
    runs = {p: figures(p) for p in sorted(glob.glob(f"{d}/before-*.json") + glob.glob(f"{d}/after-*.json"))}
    names = sorted(set().union(*runs.values()))
    bad = 0
    for n in names:
        values = {p.split("/")[-1]: r.get(n) for p, r in runs.items()}
        same = len(set(values.values())) == 1
        bad += not same
        print(f"{'same' if same else 'DIFFERENT'} {n}: {sorted(set(map(str, values.values())))}")
    print(f"{len(names)} signatures, {bad} different")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
