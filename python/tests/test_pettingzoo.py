"""PettingZoo's own test suite on every game and variant."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import pjlab
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


def test_an_unknown_render_mode_says_which_modes_there_are():
    for make in (pz.env, pz.raw_env):
        with pytest.raises(ValueError, match="is not one of") as caught:
            make("chomp", render_mode="pixels")
        assert "'ansi', 'human', 'rgb_array'" in str(caught.value)


@pytest.mark.parametrize(
    ("name", "variant"),
    [("pijersi", None), ("abalone", None), ("abalone", "doubles"), ("chomp", None), ("chifoumi", None)],
)
def test_render_rgb_array_pictures_the_position(name, variant):
    env = pz.env(name, variant, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=3)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.ndim == 3 and first.shape[2] == 3 and min(first.shape[:2]) >= 100
    # Not blank: the board, the pieces (or Chifoumi's objects and players) and the ink.
    colours = np.unique(first.reshape(-1, 3), axis=0)
    assert len(colours) >= 8, f"{len(colours)} colours"
    assert (first == 255).all(axis=2).mean() < 0.95, "almost all white"
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    second = env.render()
    assert second.shape == first.shape
    assert not np.array_equal(first, second), "a move changes the picture"
    assert np.array_equal(env.render(), second), "the same position, the same picture"


def test_pictures_scale_and_refuse_bad_scales():
    state = pjlab.load_game("chomp").new_initial_state()
    one, two = state.rgb(), state.rgb(scale=2.0)
    assert abs(two.shape[0] - 2 * one.shape[0]) <= 1 and abs(two.shape[1] - 2 * one.shape[1]) <= 1
    for bad in (0.0, -1.0, 100.0):
        with pytest.raises(ValueError, match="scale"):
            state.rgb(scale=bad)


def test_render_ansi_shows_the_position():
    env = pz.env("abalone", "belgian-daisy", render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith("ww1bb/")
