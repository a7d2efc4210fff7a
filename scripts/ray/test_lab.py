"""lab.py on a local Ray instance: a training run with two actors, a sharded balance study equal
to the unsharded one, and the faults a cluster sees (an actor or the learner killed at a random
moment). Needs the release build of pjlab (`cargo build --release -p pjlab-cli`) and
`pip install -r scripts/ray/requirements.txt`; `scripts/test.sh` does both."""

from __future__ import annotations

import json
import os
import pathlib
import random
import re
import signal
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import lab  # noqa: E402

PJLAB = lab.find_pjlab(None)
LAB = [sys.executable, str(HERE / "lab.py"), "--pjlab", PJLAB]

TINY = """
game = "pijersi"
seed = 7
iterations = {iterations}
games_per_iteration = 8
workers = 1
[network]
hidden = 16
layers = 1
[selfplay]
simulations = 8
cheap_simulations = 2
games_in_flight = 4
max_plies = 40
[window]
min_size = 50
[train]
batch_size = 32
[eval]
every = 0
pairs = 1
simulations = 4
depth = 1
max_plies = 20
"""


def tiny_config(tmp: pathlib.Path, iterations: int) -> pathlib.Path:
    path = tmp / "tiny.toml"
    path.write_text(TINY.format(iterations=iterations))
    return path


def train_cmd(config: pathlib.Path, run: pathlib.Path) -> list[str]:
    return LAB + ["train", "--config", str(config), "--run", str(run), "--actors", "2",
                  "--actor-games", "4", "--report-every", "1"]


def taken(run: pathlib.Path) -> list[str]:
    """The chunks the newest checkpoint has taken."""
    latest = (run / "checkpoints" / "latest").read_text().strip()
    return json.loads((run / "checkpoints" / latest / "state.json").read_text())["chunks"]


def check_chunks(run: pathlib.Path) -> None:
    """Every committed chunk is whole, every actor numbered its chunks without a repeat, and the
    learner took each chunk once."""
    games = sorted(p.stem for p in (run / "games").glob("a*-*.parquet"))
    positions = {p.stem for p in (run / "positions").glob("a*-*.parquet")}
    assert games, "no chunk written"
    assert set(games) <= positions, "a games file without its positions"
    chunks = taken(run)
    assert len(chunks) == len(set(chunks)), "a chunk taken twice"
    assert set(chunks) <= set(games)
    # The iterations' games are those of the chunks taken (four games a chunk).
    lines = (run / "metrics.jsonl").read_text().splitlines()
    counted = sum(json.loads(line)["selfplay"]["games"] for line in lines if line.strip())
    assert counted == 4 * len(chunks)


def iterations_in(run: pathlib.Path) -> list[int]:
    lines = (run / "metrics.jsonl").read_text().splitlines()
    return [json.loads(line)["iteration"] for line in lines if line.strip()]


def test_a_training_run_with_two_actors(tmp_path):
    run = tmp_path / "run"
    done = subprocess.run(train_cmd(tiny_config(tmp_path, 3), run), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "learner finished" in done.stdout
    assert iterations_in(run) == [1, 2, 3]
    assert (run / "checkpoints" / "latest").read_text().strip() == "iter-0003"
    check_chunks(run)
    for k in (1, 2):
        log = (run / "logs" / f"actor-{k}.log").read_text()
        assert re.search(r"actor %d: [1-9]\d* batches" % k, log), log
        assert "the learner has finished" in log


def report_lines(path: pathlib.Path) -> list[str]:
    """A report without what differs between any two runs of the same games: the invocation
    lines (machine, start time, command line) and the wall-clock time per move section."""
    out, skipping = [], False
    for line in path.read_text().splitlines():
        if line.startswith("## "):
            skipping = line.startswith("## Time per move")
        if skipping or line.startswith(("| run by", "| resumed by", "Command:")):
            continue
        out.append(line)
    return out


def test_a_sharded_balance_study_merges_to_the_unsharded_one(tmp_path):
    args = ["--agent", "alphabeta:depth=1", "--variants", "classic,half-random",
            "--games-per-variant", "6", "--seed", "3", "--workers", "1"]
    whole = tmp_path / "whole"
    subprocess.run([PJLAB, "-q", "balance", *args, "--out", str(whole)], check=True, timeout=600)
    merged = tmp_path / "merged"
    done = subprocess.run(LAB + ["balance", "--shards", "3", "--out", str(merged), "--", *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(list((merged / "shards").glob("*-of-3/games.parquet"))) == 3
    assert report_lines(merged / "report.md") == report_lines(whole / "report.md")
    for name in ("summary.csv", "games.txt"):
        assert (merged / name).read_text() == (whole / name).read_text(), name
    # games.csv, without the measured milliseconds per move (its last two columns).
    def games(d):
        return [line.rsplit(",", 2)[0] for line in (d / "games.csv").read_text().splitlines()]
    assert games(merged) == games(whole)
    # Run again: nothing left to play.
    again = subprocess.run(LAB + ["balance", "--shards", "3", "--out", str(merged), "--", *args],
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "already holds the merged run" in again.stdout


ATLAS = """
game = "chomp"
seed = 5
[[levels]]
name = "d1"
agent = "alphabeta:depth=1"
[[levels]]
name = "exact"
agent = "alphabeta:depth=30"
[[protocols]]
name = "random"
[[protocols.runs]]
variants = ["3x4", "4x5"]
games_per_variant = 12
opening_plies = 2
[ladder]
games_per_pair = 6
variants = ["3x4"]
opening_plies = 0
"""


def test_a_sharded_atlas_merges_to_the_unsharded_one(tmp_path):
    spec = tmp_path / "atlas.toml"
    spec.write_text(ATLAS)
    whole = tmp_path / "whole"
    subprocess.run([PJLAB, "-q", "atlas", "run", "--spec", str(spec), "--out", str(whole),
                    "--workers", "1"], check=True, timeout=600)
    merged = tmp_path / "merged"
    cmd = LAB + ["atlas", "--shards", "2", "--out", str(merged), "--",
                 "--spec", str(spec), "--workers", "1"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 cells merged" in done.stdout, done.stdout
    assert (merged / "atlas.csv").read_text() == (whole / "atlas.csv").read_text()
    # Run again: the shards are finished and the cells merged; nothing changes.
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "0 cells merged" in again.stdout, again.stdout


def pids_of(pattern: str) -> list[int]:
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def kill_at_random(cmd: list[str], run: pathlib.Path, victim: str, seed: int) -> str:
    """Runs lab.py train, kills the process matching `victim` with SIGKILL at a random moment
    after the first chunk, and returns lab.py's output once the run has finished."""
    lab_run = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 300
    while not list(run.glob("games/a*-*.parquet")):
        assert time.monotonic() < deadline, "no chunk written"
        assert lab_run.poll() is None, lab_run.stdout.read()
        time.sleep(0.05)
    time.sleep(random.Random(seed).uniform(0.0, 0.5))
    victims = pids_of(victim)
    assert victims, f"nothing matches {victim}"
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    out, _ = lab_run.communicate(timeout=600)
    assert lab_run.returncode == 0, out
    return out


def test_a_killed_actor_is_restarted_and_no_chunk_is_lost_or_taken_twice(tmp_path):
    run = tmp_path / "run"
    out = kill_at_random(train_cmd(tiny_config(tmp_path, 20), run), run,
                         f"selfplay --run {run} --actor 1", seed=1)
    assert "actor-1 ended with -9; restarting it (1)" in out, out
    assert iterations_in(run) == list(range(1, 21))
    check_chunks(run)
    # The restarted actor went on numbering after its last chunk, cut short or not.
    numbers = sorted(int(p.stem.split("-")[1]) for p in (run / "games").glob("a001-*.parquet"))
    assert numbers == sorted(set(numbers))


def test_a_killed_learner_resumes_from_its_checkpoint_and_takes_no_chunk_twice(tmp_path):
    run = tmp_path / "run"
    out = kill_at_random(train_cmd(tiny_config(tmp_path, 20), run), run,
                         f"train --config .* --run {run} --learner", seed=2)
    assert "learner ended with -9; restarting it (1)" in out, out
    # Every iteration once: an iteration cut short is done again, not counted twice.
    assert iterations_in(run) == list(range(1, 21))
    check_chunks(run)
