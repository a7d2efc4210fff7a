"""Times ``Agent.choose`` per call for quick agents (``random``, ``greedy``) and a depth-1
alpha-beta, against a cheap method of the same state that spawns no thread
(``State.legal_actions()``: one move generation and a Python list), to see what a call's
machinery (the state's copy, the Ctrl-C worker, the GIL's release) costs beside the choice.

    python python/bench/choose.py [--game pijersi] [--calls 20000] [--rounds 7]

Each figure is the median over ``--rounds`` rounds of ``--calls`` calls on one position (the
game's start, seed 1), in microseconds a call. A benchmark, not a test: it prints figures and
asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import pjlab


def per_call(call, calls: int, rounds: int) -> float:
    """The median over ``rounds`` of the microseconds a call of ``call`` takes, over ``calls``
    calls (one warm-up round first)."""
    times = []
    for round_ in range(rounds + 1):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        if round_ > 0:
            times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pijersi")
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    state = pjlab.load_game(args.game).new_initial_state(1)
    print(
        f"# python python/bench/choose.py --game {args.game} --calls {args.calls} "
        f"--rounds {args.rounds}; load {os.getloadavg()[0]:.2f}"
    )
    print(f"cpu: {platform.processor() or platform.machine()} ({os.cpu_count()} logical cores), "
          f"python {platform.python_version()}")
    print(f"{args.game}, {len(state.legal_actions())} legal actions at the start")
    baseline = per_call(state.legal_actions, args.calls, args.rounds)
    print(f"  {'State.legal_actions()':<34} {baseline:8.2f} us/call (no thread)")
    for spec in ("random", "greedy", "alphabeta:depth=1"):
        agent = pjlab.Agent(spec, args.game, seed=1)
        calls = args.calls if spec in ("random", "greedy") else max(1, args.calls // 20)
        us = per_call(lambda: agent.choose(state), calls, args.rounds)
        print(f"  {f'Agent({spec!r}).choose(state)':<34} {us:8.2f} us/call "
              f"({us - baseline:+.2f} beside legal_actions)")


if __name__ == "__main__":
    main()
