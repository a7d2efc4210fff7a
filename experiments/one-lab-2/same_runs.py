#!/usr/bin/env python3
"""Compares the training runs DIR/train-{before,after} and DIR/chifoumi-{before,after}: their
metrics.jsonl lines with every timing field taken out must be equal, and so must the networks
(DIR/train-*/model.onnx bytes; for Chifoumi, the tables of DIR/chifoumi-*/match/report.md,
the trained player's seeded matches against random). Exit code 1
when anything differs. Standard library only.

    same_runs.py DIR
"""
import json
import sys
from pathlib import Path

TIMING = ("_s", "per_s", "elapsed", "seconds")


def untimed(value):
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items()
                if not any(k.endswith(t) or t in k for t in TIMING)}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def lines(run):
    with open(run / "metrics.jsonl", encoding="utf-8") as f:
        return [untimed(json.loads(l)) for l in f if l.strip()]


def tables(report):
    # The player's label names its run directory; the rest of each row is the play.
    text = report.read_text(encoding="utf-8")
    text = text.replace("chifoumi-before", "chifoumi-X").replace("chifoumi-after", "chifoumi-X")
    return [l for l in text.splitlines() if l.startswith("|")]


def main():
    d = Path(sys.argv[1])
    bad = 0
    for kind in ("train", "chifoumi"):
        a, b = d / f"{kind}-before", d / f"{kind}-after"
        la, lb = lines(a), lines(b)
        same = la == lb
        bad += not same
        print(f"{kind}: {len(la)} metrics lines, {'equal' if same else 'DIFFERENT'} without timings")
    same = (d / "train-before/model.onnx").read_bytes() == (d / "train-after/model.onnx").read_bytes()
    bad += not same
    print(f"train: exported network {'equal' if same else 'DIFFERENT'} byte for byte")
    ta = tables(d / "chifoumi-before/match/report.md")
    tb = tables(d / "chifoumi-after/match/report.md")
    same = ta == tb and len(ta) > 0
    bad += not same
    print(f"chifoumi: {len(ta)} table rows of the trained player's matches, {'equal' if same else 'DIFFERENT'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
