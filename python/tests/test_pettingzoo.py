"""PettingZoo's own test suite on every game and variant."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import pjlab.pettingzoo as pz
from conftest import ALL_VARIANTS


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_api_test(name, variant):
    with warnings.catch_warnings():
        # Dict observations with action masks, as PettingZoo's classic environments have.
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(pz.env(name, variant), num_cycles=200)


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_seed_test(name, variant):
    seed_test(lambda: pz.env(name, variant), num_cycles=200)


def test_a_whole_game_with_masks_and_final_rewards():
    env = pz.env("chomp", "3x4")
    env.reset(seed=1)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            action = None
        else:
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
            action = int(np.flatnonzero(obs["action_mask"])[-1])
        env.step(action)
    assert sorted(total.values()) == [-1.0, 1.0]


def test_doubles_agents_follow_the_seat_order():
    env = pz.env("abalone", "doubles-0321")
    env.reset(seed=0)
    seen = []
    for _ in range(5):
        seen.append(env.agent_selection)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert seen == ["player_0", "player_3", "player_2", "player_1", "player_0"]


def test_illegal_action_raises_and_changes_nothing():
    env = pz.env("pijersi")
    env.reset(seed=0)
    before = str(env.unwrapped.state)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert str(env.unwrapped.state) == before
    assert env.agent_selection == "player_0"


def test_render_modes_without_pixels_say_which_modes_there_are():
    for make in (pz.env, pz.raw_env):
        with pytest.raises(NotImplementedError, match="'rgb_array' is not supported") as caught:
            make("chomp", render_mode="rgb_array")
        assert "'ansi', 'human'" in str(caught.value)
        with pytest.raises(ValueError, match="is not one of"):
            make("chomp", render_mode="pixels")


def test_render_ansi_shows_the_position():
    env = pz.env("abalone", "belgian-daisy", render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith("ww1bb/")
