#!/usr/bin/env python3
"""Games per hour with 1 and 2 self-play actors, and the learner's samples per second, for a
training run on Ray (scripts/ray/lab.py) on this machine. Writes results.json beside this file.

    .venv-ray/bin/python experiments/scale/measure.py [--config configs/pijersi.toml]
        [--warmup 30] [--seconds 120] [--actors 1,2]

Each setting starts a fresh run directory, lets it warm up, counts the chunks committed during
the measured window (each holds --actor-games games), then stops the run with SIGINT. The
learner's figures are its metrics lines within the window.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import signal
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "scripts" / "ray"))
import lab  # noqa: E402


def cpu_model() -> str:
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def metrics(run: pathlib.Path) -> list[dict]:
    path = run / "metrics.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def measure(pjlab: str, config: str, actors: int, games: int, warmup: float, seconds: float):
    with tempfile.TemporaryDirectory() as tmp:
        run = pathlib.Path(tmp) / "run"
        cmd = [sys.executable, str(REPO / "scripts/ray/lab.py"), "--pjlab", pjlab, "train",
               "--config", config, "--run", str(run), "--actors", str(actors),
               "--actor-games", str(games), "--iterations", "100000", "--report-every", "3600"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while not list(run.glob("games/a*-*.parquet")):
                if proc.poll() is not None:
                    raise SystemExit(f"lab.py ended early; see {run}/logs")
                time.sleep(0.5)
            time.sleep(warmup)
            chunks0, lines0, t0 = len(list(run.glob("games/a*.parquet"))), len(metrics(run)), time.monotonic()
            time.sleep(seconds)
            chunks1, t1 = len(list(run.glob("games/a*.parquet"))), time.monotonic()
            window = metrics(run)[lines0:]
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=180)
            except subprocess.TimeoutExpired:
                proc.kill()
        trained = sum(m["samples_trained"] for m in window)
        train_s = sum(m["train_s"] for m in window)
        return {
            "actors": actors,
            "seconds": round(t1 - t0, 1),
            "chunks": chunks1 - chunks0,
            "games": (chunks1 - chunks0) * games,
            "games_per_hour": round((chunks1 - chunks0) * games * 3600 / (t1 - t0)),
            "learner_iterations": len(window),
            "learner_samples_trained": trained,
            "learner_samples_per_s": round(trained / train_s, 1) if train_s else None,
            "learner_busy_share": round(sum(m["train_s"] + m["eval_s"] for m in window)
                                        / (t1 - t0), 3),
        }


def report(record: dict) -> str:
    """report.md: the measured table (the README quotes its rows)."""
    lines = [
        "# Self-play on Ray: games per hour and the learner's throughput",
        "",
        f"`{record['command']}` with `{record['pjlab']}` on {record['cpu']}, "
        f"{record['cores']} cores (finished {record['finished']}); configuration "
        f"`{record['config']}`, {record['actor_games']} games a chunk, one worker (core) an actor.",
        "",
        "| actors | seconds | chunks | games | games/hour | learner iterations "
        "| learner samples/s | learner busy |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in record["results"]:
        lines.append(
            f"| {r['actors']} | {r['seconds']} | {r['chunks']} | {r['games']} "
            f"| {r['games_per_hour']} | {r['learner_iterations']} "
            f"| {r['learner_samples_per_s']} | {r['learner_busy_share']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(REPO / "configs/pijersi.toml"))
    parser.add_argument("--actor-games", type=int, default=64, help="games a chunk")
    parser.add_argument("--warmup", type=float, default=30)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--actors", default="1,2", help="actor counts to measure")
    parser.add_argument("--out", default=str(HERE / "results.json"))
    parser.add_argument("--report-only", action="store_true",
                        help="write report.md again from the results file")
    args = parser.parse_args()
    if args.report_only:
        record = json.loads(pathlib.Path(args.out).read_text())
        (pathlib.Path(args.out).parent / "report.md").write_text(report(record))
        return 0
    pjlab = lab.find_pjlab(None)
    version = subprocess.run([pjlab, "--version"], capture_output=True, text=True).stdout.strip()
    results = [measure(pjlab, args.config, int(n), args.actor_games, args.warmup, args.seconds)
               for n in args.actors.split(",")]
    record = {
        "pjlab": version,
        "command": " ".join([os.path.relpath(sys.argv[0], REPO), *sys.argv[1:]]),
        "config": os.path.relpath(args.config, REPO),
        "actor_games": args.actor_games,
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "results": results,
    }
    pathlib.Path(args.out).write_text(json.dumps(record, indent=2) + "\n")
    (pathlib.Path(args.out).parent / "report.md").write_text(report(record))
    print(json.dumps(record, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
