#!/usr/bin/env python3
"""Markdown table of a training run's evaluations, from its metrics.jsonl (standard library only).

    scripts/strength-table.py runs/pijersi/metrics.jsonl [EVERY]

Prints one row per evaluation (or per EVERY-th iteration among them): iteration, elapsed
minutes, score with its 95% Wilson interval, W/D/L, self-play mean plies, losses.
"""
import json
import sys


def main() -> None:
    path = sys.argv[1]
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    print("| iteration | elapsed (min) | score | 95% interval | W/D/L | mean plies | policy loss | value loss |")
    print("|---|---|---|---|---|---|---|---|")
    for m in rows:
        s = m.get("strength")
        if not s or m["iteration"] % every:
            continue
        fmt = lambda x: "-" if x is None else f"{x:.3f}"
        print(
            f"| {m['iteration']} | {m['elapsed_s'] / 60:.1f} | {s['score']:.3f} | "
            f"{s['low']:.3f} - {s['high']:.3f} | {s['wins']}/{s['draws']}/{s['losses']} | "
            f"{m['mean_length']:.1f} | {fmt(m['policy_loss'])} | {fmt(m['value_loss'])} |"
        )
    sp = sum(m["selfplay_s"] for m in rows)
    tr = sum(m["train_s"] for m in rows)
    ev = sum(m["eval_s"] for m in rows)
    total = sp + tr + ev
    print()
    print(
        f"Time: self-play {sp / 60:.1f} min ({sp / total:.0%}), training {tr / 60:.1f} min "
        f"({tr / total:.0%}), evaluation {ev / 60:.1f} min ({ev / total:.0%}); "
        f"{sum(m['selfplay']['games'] for m in rows)} games, "
        f"{sum(m['selfplay']['positions'] for m in rows)} positions."
    )


if __name__ == "__main__":
    main()
