#!/usr/bin/env python3
"""Side-by-side table of the bench figures in DIR/before-*.json and DIR/after-*.json: each
figure's median over the runs before and after, their ratio, and the spread (min-max) of each,
so that a difference can be read against the noise of one binary. Standard library only.

    compare.py DIR
"""
import glob
import json
import statistics
import sys


def load(pattern):
    runs = []
    for path in sorted(glob.glob(pattern)):
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    return runs


def figures(run):
    # `pjlab bench --json` prints {"figures": {name: value, ...}, ...} or a flat object.
    data = run.get("figures", run)
    return {k: v for k, v in data.items() if isinstance(v, (int, float))}


def main():
    d = sys.argv[1]
    before = [figures(r) for r in load(f"{d}/before-*.json")]
    after = [figures(r) for r in load(f"{d}/after-*.json")]
    names = sorted(set().union(*before) & set().union(*after))
    print("| figure | before (median) | after (median) | after / before | before min-max | after min-max |")
    print("|---|---|---|---|---|---|")
    for n in names:
        b = [r[n] for r in before if n in r]
        a = [r[n] for r in after if n in r]
        mb, ma = statistics.median(b), statistics.median(a)
        ratio = ma / mb if mb else float("nan")
        print(f"| {n} | {mb:.4g} | {ma:.4g} | {ratio:.3f} | {min(b):.4g}-{max(b):.4g} | {min(a):.4g}-{max(a):.4g} |")


if __name__ == "__main__":
    main()
