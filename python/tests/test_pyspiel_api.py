"""pyspiel's methods beyond the basics, without OpenSpiel installed: game types and utilities,
rewards and move numbers, text forms and pickling, each player's own view, Chifoumi's
information states."""

from __future__ import annotations

import multiprocessing
import pickle

import numpy as np
import pytest

import pjlab
from conftest import ALL_VARIANTS, BOARD_GAMES, settle


def random_play(state: pjlab.State, rng: np.random.Generator, plies: int) -> list[int]:
    """Plays up to ``plies`` random actions (chance from the state's generator); the actions."""
    played = []
    for _ in range(plies):
        settle(state)
        if state.is_terminal():
            break
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        played.append(action)
    return played


@pytest.mark.parametrize("name", pjlab.registered_games())
def test_get_type_has_pyspiels_fields(name):
    game = pjlab.load_game(name)
    kind = game.get_type()
    hidden = name == "chifoumi"
    assert kind.short_name == name and kind.long_name
    assert kind.dynamics.name == "SEQUENTIAL"
    assert kind.chance_mode.name == ("EXPLICIT_STOCHASTIC" if hidden else "DETERMINISTIC")
    assert kind.information.name == (
        "IMPERFECT_INFORMATION" if hidden else "PERFECT_INFORMATION"
    )
    assert kind.utility.name == "ZERO_SUM" and kind.reward_model.name == "TERMINAL"
    assert kind.min_num_players == 2
    assert kind.max_num_players == (4 if name == "abalone" else 2)
    assert kind.provides_information_state_string == hidden
    assert kind.provides_information_state_tensor == hidden
    assert kind.provides_observation_string and kind.provides_observation_tensor
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


def test_pjlab_game_type_stands_in_for_pyspiels_without_openspiel(monkeypatch):
    from pjlab import game_type

    monkeypatch.setattr(game_type, "_open_spiel", lambda: None)
    kind = pjlab.load_game("chifoumi").get_type()
    assert isinstance(kind, pjlab.GameType)
    assert kind.chance_mode is pjlab.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information is pjlab.GameType.Information.IMPERFECT_INFORMATION
    assert kind.dynamics is pjlab.GameType.Dynamics.SEQUENTIAL
    assert kind.reward_model is pjlab.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_tensor and kind.parameter_specification == {}


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_rewards_returns_and_move_numbers(name, variant):
    game = pjlab.load_game(name, variant)
    state = game.new_initial_state(seed=3)
    rng = np.random.default_rng(3)
    chance = 0
    while not state.is_terminal():
        assert state.rewards() == [0.0] * game.num_players()
        if state.is_chance_node():
            state.apply_seeded_chance()
            chance += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.rewards() == state.returns()
    assert [state.player_return(p) for p in range(game.num_players())] == state.returns()
    assert state.move_number() == len(state.history()) - chance
    assert state.history_str() == ", ".join(str(a) for a in state.history())
    with pytest.raises(pjlab.PlayerError):
        state.player_return(game.num_players())


@pytest.mark.parametrize(("name", "variant"), ALL_VARIANTS)
def test_states_pickle_and_read_back_from_their_text(name, variant):
    game = pjlab.load_game(name, variant)
    assert pickle.loads(pickle.dumps(game)) == game
    assert pjlab.load_game(game.serialize()) == game
    rng = np.random.default_rng(11)
    state = game.new_initial_state(seed=5)
    random_play(state, rng, 9)
    if name == "chifoumi" and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])  # a chance node may be due after it
    for copy in (
        pickle.loads(pickle.dumps(state)),
        game.deserialize_state(state.serialize()),
        pjlab.deserialize_game_and_state(pjlab.serialize_game_and_state(game, state))[1],
    ):
        assert copy.serialize() == state.serialize()
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.move_number() == state.move_number()
        assert copy.get_game() == game
        # Both play on identically, chance draws from their generators included.
        a, b = np.random.default_rng(1), np.random.default_rng(1)
        forked = state.clone()
        for _ in range(40):
            assert random_play(forked, a, 1) == random_play(copy, b, 1)
            assert copy.serialize() == forked.serialize()
        assert copy.returns() == forked.returns()
        np.testing.assert_array_equal(copy.observation_tensor(0), forked.observation_tensor(0))
    other = pjlab.load_game(name, game.variants()[-1] if variant == game.variants()[0] else None)
    if other != game:
        with pytest.raises(pjlab.ArgumentError):
            other.deserialize_state(state.serialize())


def _play_on(state: pjlab.State) -> str:
    random_play(state, np.random.default_rng(2), 30)
    return state.serialize()


def test_a_pickled_state_plays_on_identically_in_another_process():
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - platforms without fork
        pytest.skip("no fork start method here")
    states = []
    for name in pjlab.registered_games():
        state = pjlab.load_game(name).new_initial_state(seed=6)
        random_play(state, np.random.default_rng(6), 5)
        states.append(state)
    with context.Pool(2) as pool:
        played = pool.map(_play_on, states)
    assert played == [_play_on(s.clone()) for s in states]


def test_bad_state_texts_are_refused():
    game = pjlab.load_game("pijersi")
    for text in ("", "hello", "pjlab-state 1\ngame pijersi\nhistory x\nmoves 0\n"):
        with pytest.raises(pjlab.ArgumentError):
            game.deserialize_state(text)
    with pytest.raises(pjlab.UnknownGameError):
        pjlab.deserialize_state("pjlab-state 1\ngame go()\nhistory\nmoves 0\nx")


def planes(obs: np.ndarray, count: int, cells: int) -> np.ndarray:
    return obs[: count * cells].reshape(count, cells)


def test_each_pijersi_side_sees_the_board_from_its_own_side():
    # Black's view is White's with the colours swapped (planes 0-3 <-> 4-7, 8-11 <-> 12-15) and
    # the board turned half a turn (cell i <-> 44 - i); the draw counter is shared. (The classic
    # start is its own image: there both views are equal.)
    differ = 0
    for variant in ("classic", "full-random"):
        state = pjlab.load_game("pijersi", variant).new_initial_state(seed=8)
        rng = np.random.default_rng(8)
        for _ in range(40):
            if state.is_terminal():
                break
            white, black = state.observation_tensor(0), state.observation_tensor(1)
            w, b = planes(white, 16, 45), planes(black, 16, 45)
            expected = w[[4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11]][:, ::-1]
            np.testing.assert_array_equal(b, expected)
            assert white[-1] == black[-1]
            differ += not np.array_equal(white, black)
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert differ > 40


def test_each_abalone_side_sees_the_board_from_its_own_side():
    # Two players: White's view is Black's with the marbles' planes swapped (0 <-> 1; plane 2,
    # the marbles the player may move, is its own) and the board turned (cell i <-> 60 - i); the
    # ejection counts swapped, the draw counter shared.
    state = pjlab.load_game("abalone", "belgian-daisy").new_initial_state()
    rng = np.random.default_rng(9)
    for _ in range(30):
        black, white = state.observation_tensor(0), state.observation_tensor(1)
        bp, wp = planes(black, 7, 61), planes(white, 7, 61)
        np.testing.assert_array_equal(wp[0], bp[1][::-1])
        np.testing.assert_array_equal(wp[1], bp[0][::-1])
        np.testing.assert_array_equal(wp[2], wp[0])
        np.testing.assert_array_equal(bp[2], bp[0])
        np.testing.assert_array_equal(wp[3:], 0)
        sb, sw = black[7 * 61 :], white[7 * 61 :]
        assert (sw[0], sw[1], sw[2]) == (sb[1], sb[0], sb[2])
        state.apply_action(int(rng.choice(state.legal_actions())))
    # Doubles: partners share a colour and see the same marbles of each colour.
    state = pjlab.load_game("abalone", "doubles").new_initial_state()
    views = [planes(state.observation_tensor(p), 7, 61) for p in range(4)]
    np.testing.assert_array_equal(views[0][:2], views[2][:2])
    np.testing.assert_array_equal(views[1][:2], views[3][:2])
    np.testing.assert_array_equal(views[1][[1, 0]], views[0][:2, ::-1])


def test_the_movers_view_is_unchanged_and_chomp_shows_no_side():
    for name in BOARD_GAMES:
        state = pjlab.load_game(name).new_initial_state(seed=1)
        random_play(state, np.random.default_rng(1), 3)
        mover = state.current_player()
        np.testing.assert_array_equal(
            state.observation_tensor(), state.observation_tensor(mover)
        )
        np.testing.assert_array_equal(
            state.observation_tensor(mover),
            pjlab.load_game(name).encode_positions([str(state)])[0],
        )
    state = pjlab.load_game("chomp", "4x5").new_initial_state()
    state.apply_action(13)
    np.testing.assert_array_equal(state.observation_tensor(0), state.observation_tensor(1))


def test_pettingzoo_agents_observe_their_own_side():
    pytest.importorskip("pettingzoo")
    from pjlab.pettingzoo import env

    e = env("pijersi", variant="full-random")
    e.reset(seed=3)
    differ = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        raw = e.unwrapped
        player = raw.possible_agents.index(agent)
        np.testing.assert_array_equal(obs["observation"], raw.state.observation_tensor(player))
        other = raw.observe(raw.possible_agents[1 - player])["observation"]
        differ += not np.array_equal(obs["observation"], other)
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert differ > 0


def test_observation_strings():
    state = pjlab.load_game("abalone").new_initial_state()
    assert state.observation_string(0) == state.observation_string(1) == str(state)
    chifoumi = settle(pjlab.load_game("chifoumi").new_initial_state(seed=2))
    mine = chifoumi.observation_string(0)
    assert mine.startswith("turn 0/200") and mine != chifoumi.observation_string(1)
    for name in BOARD_GAMES:
        state = pjlab.load_game(name).new_initial_state()
        with pytest.raises(pjlab.ArgumentError):
            state.information_state_tensor(0)
        with pytest.raises(pjlab.ArgumentError):
            state.information_state_string(0)
        with pytest.raises(pjlab.ArgumentError):
            state.get_game().information_state_tensor_size()


def test_chifoumi_information_state_is_each_players_observations_so_far():
    game = pjlab.load_game("chifoumi")
    size = game.information_state_tensor_size()
    width = game.observation_tensor_size()
    assert size == (game.max_game_length() + 1) * width + 6
    rng = np.random.default_rng(5)
    for seed in range(3):
        state = settle(game.new_initial_state(seed=seed))
        seen: list[list[np.ndarray]] = [[state.observation_tensor(p)] for p in range(2)]
        while True:
            for p in range(2):
                info = state.information_state_tensor(p)
                assert info.shape == (size,)
                rows = np.concatenate(seen[p])
                np.testing.assert_array_equal(info[: rows.size], rows)
                assert not info[rows.size : size - 6].any()
                assert len(state.information_state_string(p).splitlines()) == len(seen[p])
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
            settle(state)
            for p in range(2):
                seen[p].append(state.observation_tensor(p))
        assert state.information_state_string(0) != state.information_state_string(1)
