"""Ctrl-C stops long calls: a SIGINT sent from a timer thread while a deep search (the lab's
searches, Chifoumi's ISMCTS, an external engine's) or a long batch run is under way raises
KeyboardInterrupt soon after, and the object still works."""

from __future__ import annotations

import os
import pathlib
import signal
import threading
import time

import numpy as np
import pytest

import pjlab

# Far more than the calls below need to notice the signal (about 10 ms), never a tight bound.
# Each call is bounded (about 20 s) so that, uninterrupted, it ends and fails the bound
# (KeyboardInterrupt then comes only when it returns) instead of hanging the suite.
BOUND = 2.0
DELAY = 0.3


@pytest.fixture(autouse=True)
def sigint_raises_keyboard_interrupt():
    """Python's own SIGINT handler for each test, whatever the suite was started from: a shell
    starts a background job (``nohup ... &``, a script's ``&``) with SIGINT ignored, and Python
    then leaves it ignored, so no KeyboardInterrupt would come."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupted(call) -> float:
    """Runs ``call`` while a timer thread sends SIGINT after ``DELAY``; checks that it raises
    KeyboardInterrupt and returns the seconds from the signal to the exception."""
    sent: list[float] = []

    def send() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(DELAY, send)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()


def waited(call) -> float:
    """The seconds ``call`` takes."""
    started = time.monotonic()
    call()
    return time.monotonic() - started


@pytest.mark.parametrize(
    ("game", "spec"),
    [
        ("pijersi", "alphabeta:time=20s"),
        ("abalone", "mcts:time=20s"),
        ("chomp", "mcts:time=20s,solver=false"),
    ],
)
def test_a_deep_search_stops_on_ctrl_c_and_the_agent_plays_on(game, spec):
    agent = pjlab.Agent(spec, game, seed=1)
    state = pjlab.load_game(game).new_initial_state(seed=2)
    before = state.serialize()
    assert interrupted(lambda: agent.choose(state)) < BOUND
    assert state.serialize() == before
    # Usable again: the stopped search released the agent, so a second search starts, and is
    # interrupted in turn.
    assert interrupted(lambda: agent.choose(state)) < BOUND
    # The searches left behind stopped: `new_game` waits for the agent to be free.
    assert waited(lambda: agent.new_game(3)) < BOUND
    assert agent.spec == spec


def test_a_chifoumi_search_stops_on_ctrl_c_and_the_agent_plays_on():
    # 400,000 ISMCTS iterations (about 20 s), the flag read between iterations.
    agent = pjlab.Agent("ismcts:sims=400000", "chifoumi", seed=1)
    state = pjlab.load_game("chifoumi").new_initial_state(2)
    while state.is_chance_node():
        state.apply_seeded_chance()
    assert len(state.legal_actions()) > 1, "a choice to search"
    assert interrupted(lambda: agent.choose(state)) < BOUND
    assert interrupted(lambda: agent.choose(state)) < BOUND
    assert waited(lambda: agent.new_game(3)) < BOUND
    quick = pjlab.Agent("ismcts:sims=20", "chifoumi", seed=1)
    assert quick.choose(state) in state.legal_actions()


def ugi_stub() -> str:
    """The stub engine of crates/ugi-stub: $PJLAB_UGI_STUB (scripts/test-python.sh builds it and
    sets it), else target/release/pjlab-ugi-stub of the repository; the test is skipped when
    neither is there."""
    path = os.environ.get("PJLAB_UGI_STUB") or str(
        pathlib.Path(__file__).resolve().parents[2] / "target" / "release" / "pjlab-ugi-stub"
    )
    if not os.access(path, os.X_OK):
        pytest.skip(
            f"no stub engine at {path}: build it (cargo build --release -p pjlab-ugi-stub) or "
            "set PJLAB_UGI_STUB"
        )
    return path


def test_an_external_engine_that_hangs_is_stopped_on_ctrl_c_and_a_fresh_one_plays_on():
    # The stub answers its first `go` (the first legal move), then hangs, deaf to `stop`; the
    # agent's own timeout (20 s) would end the wait much later.
    agent = pjlab.Agent(f"ugi:cmd={ugi_stub()},arg=hang,arg=1,timeout=20s", "pijersi")
    state = pjlab.load_game("pijersi").new_initial_state()
    first = agent.choose(state)
    assert first in state.legal_actions()
    assert interrupted(lambda: agent.choose(state)) < BOUND
    # The hung engine was told to stop, then killed: the agent is free at once, and the next
    # choice starts a fresh engine, which answers its first search.
    assert waited(lambda: agent.new_game(1)) < BOUND
    answered = []
    assert waited(lambda: answered.append(agent.choose(state))) < BOUND
    assert answered == [first]


def test_a_quick_agent_still_answers_after_an_interrupt():
    slow = pjlab.Agent("mcts:time=20s", "pijersi")
    assert interrupted(lambda: slow.choose(pjlab.load_game("pijersi").new_initial_state())) < BOUND
    state = pjlab.load_game("chomp", "5x6").new_initial_state()
    fast = pjlab.Agent("alphabeta:depth=2", "chomp")
    assert fast.choose(state) in state.legal_actions()


def test_random_steps_stop_on_ctrl_c_and_the_env_steps_on():
    env = pjlab.BatchedEnv("pijersi", 64, seed=1)
    assert interrupted(lambda: env.random_steps(10**5)) < BOUND
    obs, masks, players = env.observe()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    env.step(actions)
    assert env.random_steps(5) >= 0
    for i in range(env.num_envs):
        state = env.state(i)
        np.testing.assert_array_equal(
            env.observe()[0][i], state.observation_tensor(state.current_player())
        )
