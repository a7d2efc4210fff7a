#!/usr/bin/env python3
"""pjlab's roles on Ray: a training run with a learner and N self-play actors, and studies fanned
out as shards.

    python scripts/ray/lab.py train --config configs/pijersi.toml --run runs/ray --actors 2
    python scripts/ray/lab.py balance --shards 4 --out runs/balance -- \\
        --agent alphabeta:depth=3 --variants classic,half-random --games-per-variant 400
    python scripts/ray/lab.py atlas --shards 16 --out runs/atlas -- \\
        --spec configs/atlas-pijersi.toml --workers 2

Every role is the `pjlab` binary run by a Ray actor or task; the roles talk only through files in
the run directory (see `pjlab train --help` and `pjlab selfplay --help`), which must be the same
path on every node (a shared filesystem). Without --address, Ray starts a local instance on this
machine; with it, the work goes to that cluster (`ray start --head` on one machine and
`ray start --address=...` on the others, KubeRay or Ray on Slurm). The pjlab binary must be
runnable at the same path on every node (--pjlab, or $PJLAB_BIN, or this checkout's
target/release/pjlab).

Install: pip install -r scripts/ray/requirements.txt
"""

from __future__ import annotations

import argparse
import ctypes
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time
import tomllib

import ray

REPO = pathlib.Path(__file__).resolve().parents[2]
KINDS = ("balance", "match", "tournament", "atlas")


def find_pjlab(explicit: str | None) -> str:
    """The pjlab binary: --pjlab, $PJLAB_BIN, the checkout's release build, or pjlab on PATH."""
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for candidate in (explicit, os.environ.get("PJLAB_BIN"), target / "release" / "pjlab"):
        if candidate and pathlib.Path(candidate).is_file():
            return str(pathlib.Path(candidate).resolve())
    found = shutil.which("pjlab")
    if found:
        return found
    sys.exit(
        "error: no pjlab binary: build it (cargo build --release -p pjlab-cli) or pass --pjlab"
    )


def _die_with_parent() -> None:
    """Makes a child process receive SIGTERM when the Ray worker that started it dies (Linux)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


@ray.remote(max_concurrency=2)
class Role:
    """A pjlab process run by a Ray actor: `run` starts it and returns its exit code; `stop`
    (callable while `run` waits) sends it SIGINT, which pjlab takes as "finish and stop"."""

    def __init__(self, cmd: list[str], log: str):
        self.cmd = cmd
        self.log = log
        self.proc: subprocess.Popen | None = None

    def run(self) -> int:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                self.cmd, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent
            )
            return self.proc.wait()

    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)


def start_ray(address: str | None, cpus: float = 0) -> None:
    """Connects to the cluster at `address`, or starts a local Ray instance that offers at least
    `cpus` CPUs (all roles at once, even on a machine with fewer cores: they then share them)."""
    if address:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        return
    have = os.cpu_count() or 1
    if cpus > have:
        print(f"note: the roles ask for {cpus:g} CPUs, this machine has {have}: they share them")
    ray.init(num_cpus=max(have, int(cpus + 0.999)), include_dashboard=False, log_to_driver=False)


class Progress:
    """Progress lines of a training run, from its files: the learner's iteration (metrics lines),
    the newest checkpoint, and the games the actors have written (chunks of `games` games) with
    their rate since the previous line."""

    def __init__(self, run: pathlib.Path, games: int):
        self.run, self.games = run, games
        self.last = (time.monotonic(), self.chunks())

    def chunks(self) -> int:
        return len(list(self.run.glob("games/a*-*.parquet")))

    def line(self) -> str:
        metrics = self.run / "metrics.jsonl"
        iteration = 0
        if metrics.exists():
            iteration = sum(1 for line in metrics.read_text().splitlines() if line.strip())
        latest = self.run / "checkpoints" / "latest"
        checkpoint = latest.read_text().strip() if latest.exists() else "none"
        now, chunks = time.monotonic(), self.chunks()
        rate = (chunks - self.last[1]) * self.games / max(now - self.last[0], 1e-9)
        self.last = (now, chunks)
        return (f"learner iteration {iteration}, checkpoint {checkpoint}; "
                f"{chunks * self.games} games written, {rate:.1f} games/s")


def train(args: argparse.Namespace) -> int:
    pjlab = find_pjlab(args.pjlab)
    run = pathlib.Path(args.run).resolve()
    run.mkdir(parents=True, exist_ok=True)
    logs = run / "logs"
    logs.mkdir(exist_ok=True)
    config = pathlib.Path(args.config).resolve() if args.config else run / "config.toml"
    if not config.exists():
        sys.exit(f"error: no configuration: {config} does not exist (pass --config)")
    games = args.actor_games or tomllib.loads(config.read_text()).get("games_per_iteration", 64)
    start_ray(args.address, args.learner_cpus + args.actors * args.actor_workers)

    learner_cmd = [pjlab, "-q", "train", "--config", str(config), "--run", str(run), "--learner"]
    if args.iterations:
        learner_cmd += ["--iterations", str(args.iterations)]

    def actor_cmd(k: int) -> list[str]:
        cmd = [pjlab, "-q", "selfplay", "--run", str(run), "--actor", str(k)]
        cmd += ["--games", str(games), "--workers", str(args.actor_workers)]
        return cmd

    def launch(name: str, cmd: list[str], cpus: float):
        role = Role.options(num_cpus=cpus).remote(cmd, str(logs / f"{name}.log"))
        return role, role.run.remote()

    roles = {"learner": launch("learner", learner_cmd, args.learner_cpus)}
    for k in range(1, args.actors + 1):
        roles[f"actor-{k}"] = launch(f"actor-{k}", actor_cmd(k), args.actor_workers)
    restarts = {name: 0 for name in roles}
    progress = Progress(run, games)
    print(f"learner and {args.actors} actors on Ray; logs in {logs}", flush=True)
    last_report = 0.0
    learner_done = False
    try:
        while roles:
            refs = {ref: name for name, (_, ref) in roles.items()}
            ready, _ = ray.wait(list(refs), num_returns=1, timeout=1.0)
            for ref in ready:
                name = refs[ref]
                try:
                    code = ray.get(ref)
                except ray.exceptions.RayError as e:  # the Ray actor itself died
                    code = f"lost ({type(e).__name__})"
                del roles[name]
                if code == 0:
                    print(f"{name} finished", flush=True)
                    learner_done |= name == "learner"
                    continue
                if restarts[name] >= args.max_restarts:
                    print(f"{name} ended with {code}; not restarted again", flush=True)
                    continue
                restarts[name] += 1
                print(f"{name} ended with {code}; restarting it ({restarts[name]})", flush=True)
                if name == "learner":
                    roles[name] = launch(name, learner_cmd, args.learner_cpus)
                else:
                    k = int(name.split("-")[1])
                    roles[name] = launch(name, actor_cmd(k), args.actor_workers)
            if "learner" not in roles and not learner_done:
                # The learner gave up: the actors would wait for it for ever.
                for role, _ in roles.values():
                    role.stop.remote()
            if time.monotonic() - last_report >= args.report_every:
                last_report = time.monotonic()
                alive = sum(1 for n in roles if n.startswith("actor-"))
                print(f"{progress.line()}; {alive} actors running", flush=True)
    except KeyboardInterrupt:
        print("stopping: the learner after its iteration, the actors after their batch", flush=True)
        for role, _ in roles.values():
            role.stop.remote()
        refs = [ref for _, ref in roles.values()]
        ray.wait(refs, num_returns=len(refs), timeout=args.stop_timeout)
        return 130
    print(progress.line(), flush=True)
    return 0 if learner_done else 1


@ray.remote
def run_shard(cmd: list[str], log: str) -> int:
    """A shard of a study: the pjlab command's exit code, its output in `log`."""
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent
        )
        return proc.wait()


def workers_of(rest: list[str]) -> int:
    """The --workers a study's arguments ask for (1 by default)."""
    for i, arg in enumerate(rest):
        if arg == "--workers" and i + 1 < len(rest):
            return int(rest[i + 1])
        if arg.startswith("--workers="):
            return int(arg.split("=", 1)[1])
    return 1


def study(args: argparse.Namespace, rest: list[str]) -> int:
    pjlab = find_pjlab(args.pjlab)
    out = pathlib.Path(args.out).resolve()
    if args.kind != "atlas" and (out / "games.parquet").exists():
        print(f"{out} already holds the merged run; pjlab report {out} writes its report again")
        return 0
    shards_dir = out / "shards"
    shards_dir.mkdir(parents=True, exist_ok=True)
    workers = workers_of(rest)
    start_ray(args.address)
    refs, dirs = [], []
    for k in range(1, args.shards + 1):
        shard = shards_dir / f"{k}-of-{args.shards}"
        dirs.append(shard)
        if args.kind == "atlas":
            # An atlas resumes from the atlas.toml in its directory; every cell is sharded.
            given = ["--workers", str(workers)] if (shard / "atlas.toml").exists() else rest
            cmd = [pjlab, "-q", "atlas", "run", *given, "--shard", f"{k}/{args.shards}",
                   "--out", str(shard)]
        elif (shard / "games.parquet").exists():
            cmd = [pjlab, "-q", args.kind, "--out", str(shard), "--resume", "--workers", str(workers)]
        else:
            cmd = [pjlab, "-q", args.kind, *rest, "--shard", f"{k}/{args.shards}", "--out", str(shard)]
        log = str(shards_dir / f"{k}-of-{args.shards}.log")
        refs.append(run_shard.options(num_cpus=workers).remote(cmd, log))
    print(f"{args.shards} shards of a {args.kind} on Ray; logs in {shards_dir}", flush=True)
    try:
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            k = refs.index(done[0]) + 1
            code = ray.get(done[0])
            print(f"shard {k}/{args.shards} ended with {code}", flush=True)
    except KeyboardInterrupt:
        for ref in refs:
            ray.cancel(ref, force=True)
        print("stopped: run the same command again to resume the shards", flush=True)
        return 130
    failed = [k + 1 for k, ref in enumerate(refs) if ray.get(ref) != 0]
    if failed:
        print(f"error: shards {failed} failed (see their logs); run again to resume them")
        return 1
    if args.kind == "atlas":
        merge = [pjlab, "atlas", "merge", *map(str, dirs), "--out", str(out)]
    else:
        merge = [pjlab, "report", "--merge", *map(str, dirs), "--out", str(out)]
    return subprocess.run(merge).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--address", help="a Ray cluster's address (default: a local instance)")
    parser.add_argument("--pjlab", help="the pjlab binary (default: $PJLAB_BIN, target/release)")
    sub = parser.add_subparsers(dest="kind", required=True)

    t = sub.add_parser("train", help="a learner and N self-play actors on one run directory")
    t.add_argument("--config", help="TOML configuration (default: the run's own config.toml)")
    t.add_argument("--run", required=True, help="the run directory, shared by every node")
    t.add_argument("--actors", type=int, default=2, help="self-play actors (default 2)")
    t.add_argument("--actor-workers", type=int, default=1, help="threads (CPUs) per actor")
    t.add_argument("--actor-games", type=int, help="games per chunk (default: games_per_iteration)")
    t.add_argument("--learner-cpus", type=float, default=1, help="CPUs reserved for the learner")
    t.add_argument("--iterations", type=int, help="override the configuration's iterations")
    t.add_argument("--max-restarts", type=int, default=10, help="restarts per role (default 10)")
    t.add_argument("--report-every", type=float, default=10, help="seconds between progress lines")
    t.add_argument("--stop-timeout", type=float, default=120, help="seconds to wait on Ctrl-C")

    for kind in KINDS:
        s = sub.add_parser(
            kind,
            help=f"a sharded pjlab {kind}: arguments after -- go to pjlab {kind}",
            description=f"pjlab {kind} in --shards parts, one Ray task each (with the CPUs of "
            f"its --workers) into OUT/shards/K-of-N, merged into OUT by pjlab report --merge "
            f"when all have finished; the same command again resumes unfinished shards. "
            f"Example: lab.py {kind} --shards 4 --out runs/x -- <pjlab {kind} options>",
        )
        s.add_argument("--shards", type=int, required=True, help="parts, one Ray task each")
        s.add_argument("--out", required=True, help="the merged run (shards under OUT/shards)")
    args, rest = parser.parse_known_args(argv)
    rest = [a for a in rest if a != "--"]
    if args.kind == "train":
        if rest:
            parser.error(f"unknown arguments: {' '.join(rest)}")
        if args.actors < 1 or args.actor_workers < 1:
            parser.error("--actors and --actor-workers must be at least 1")
        return train(args)
    if args.shards < 1:
        parser.error("--shards must be at least 1")
    return study(args, rest)


if __name__ == "__main__":
    sys.exit(main())
