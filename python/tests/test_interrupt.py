"""Ctrl-C stops long calls: a SIGINT sent from a timer thread while a deep search or a long
batch run is under way raises KeyboardInterrupt soon after, and the object still works."""

from __future__ import annotations

import os
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
    agent.new_game(3)
    assert agent.spec == spec


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
