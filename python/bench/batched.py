"""Times, in one run, the batched environment driven from Python against the same work done in
Rust alone, and the one-state-at-a-time AEC loop against PettingZoo's chess_v6 when
``pettingzoo[classic]`` is installed.

    python python/bench/batched.py [--envs 1024] [--steps 200]

Python side: ``BatchedEnv.step`` with uniformly random legal actions drawn by numpy from the
masks it returns (fresh numpy arrays every step). Rust side: ``BatchedEnv.random_steps``, the
same batch stepped by the same code with random legal actions drawn in Rust into buffers
allocated once. Both play, encode and mask every game every step. A benchmark, not a test: it
prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

import pjlab


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (int8, 1 = legal)."""
    n, a = masks.shape
    flat = np.flatnonzero(masks.view(np.bool_))  # a bool view scans ten times faster than int8
    starts = np.searchsorted(flat, np.arange(n + 1) * a)
    pick = (rng.random(n) * np.diff(starts)).astype(np.int64)
    return flat[starts[:-1] + pick] - np.arange(n) * a


def python_batched(game: str, variant: str | None, envs: int, steps: int) -> float:
    env = pjlab.BatchedEnv(game, envs, variant=variant, seed=1)
    rng = np.random.default_rng(1)
    _, masks, _ = env.reset()
    start = time.perf_counter()
    for _ in range(steps):
        _, masks, _, _, _ = env.step(random_legal(masks, rng))
    return time.perf_counter() - start


def rust_batched(game: str, variant: str | None, envs: int, steps: int) -> float:
    env = pjlab.BatchedEnv(game, envs, variant=variant, seed=1)
    start = time.perf_counter()
    env.random_steps(steps, seed=1)
    return time.perf_counter() - start


def aec_steps(make, steps: int) -> float:
    """Seconds per step of the AEC loop with random legal actions from the masks."""
    env = make()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            done += 1
            if done >= steps:
                break
        else:
            env.reset()
    return (time.perf_counter() - start) / steps


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--aec-steps", type=int, default=3000)
    args = parser.parse_args()
    print(f"cpu: {cpu_name()} ({os.cpu_count()} logical cores), python {platform.python_version()}")
    print(f"batched: {args.envs} games x {args.steps} steps, random legal actions")
    for game, variant in [("pijersi", "half-random"), ("abalone", "belgian-daisy")]:
        python_batched(game, variant, args.envs, 5)  # warm up
        rust = min(rust_batched(game, variant, args.envs, args.steps) for _ in range(3))
        python = min(python_batched(game, variant, args.envs, args.steps) for _ in range(3))
        total = args.envs * args.steps
        print(
            f"  {game:8} {variant:14} rust {total / rust:12,.0f} steps/s   "
            f"python {total / python:12,.0f} steps/s   python/rust {rust / python:.2f}"
        )
    from pjlab.pettingzoo import env as pjlab_env

    ours = aec_steps(lambda: pjlab_env("pijersi"), args.aec_steps)
    print(f"AEC loop: pjlab pijersi {ours * 1e6:8.1f} us/step")
    try:
        from pettingzoo.classic import chess_v6
    except ImportError as error:
        print(f"  chess_v6 not measured ({error}): pip install 'pettingzoo[classic]'")
        return
    chess = aec_steps(chess_v6.env, args.aec_steps)
    print(f"AEC loop: pettingzoo chess_v6 {chess * 1e6:8.1f} us/step   ratio {chess / ours:.1f}x")


if __name__ == "__main__":
    main()
