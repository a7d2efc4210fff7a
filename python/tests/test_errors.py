"""Every bad input is a Python exception that says what and where, the state unchanged, and
never a Rust panic (pyo3's PanicException)."""

from __future__ import annotations

import numpy as np
import pytest

import pjlab
from conftest import settle


def no_panic(call, exception, match):
    """``call`` raises ``exception`` matching ``match`` and nothing else."""
    try:
        call()
    except BaseException as error:  # noqa: BLE001 (a PanicException derives from BaseException)
        assert type(error).__name__ != "PanicException", f"a Rust panic: {error}"
        assert isinstance(error, exception), f"{type(error).__name__}: {error}"
        assert match in str(error), str(error)
    else:
        pytest.fail("no exception")


def test_unknown_game_and_variant_are_key_errors():
    no_panic(lambda: pjlab.load_game("go"), KeyError, 'unknown game "go"')
    no_panic(lambda: pjlab.load_game("abalone", "triples"), KeyError, "unknown variant")
    no_panic(lambda: pjlab.load_game("chomp", "17x2"), KeyError, "17x2")
    no_panic(lambda: pjlab.load_game("chomp", "0x0"), KeyError, "0x0")
    no_panic(lambda: pjlab.load_game("chifoumi", "big"), KeyError, "standard")
    no_panic(lambda: pjlab.BatchedEnv("go", 2), KeyError, "unknown game")
    no_panic(lambda: pjlab.BatchedEnv("pijersi", 2, variant="x"), KeyError, "unknown variant")


@pytest.mark.parametrize("name", ["pijersi", "abalone", "chomp", "chifoumi"])
def test_bad_actions_leave_the_state_unchanged(name):
    game = pjlab.load_game(name)
    state = settle(game.new_initial_state(seed=2))
    history = state.history()
    before = str(state)
    n = game.num_distinct_actions()
    illegal = [a for a in range(n) if a not in state.legal_actions()]
    for action in [-1, n, n + 10**6, 2**62, -(2**62)]:
        no_panic(lambda a=action: state.apply_action(a), ValueError, "out of range")
        no_panic(lambda a=action: state.action_to_string(a), ValueError, "out of range")
    if illegal:
        no_panic(lambda: state.apply_action(illegal[0]), ValueError, "not legal")
    for action in [2**63, 2**70, -(2**63) - 1, -(10**40)]:
        no_panic(lambda a=action: state.apply_action(a), pjlab.IllegalActionError, f"action {action} ")
        no_panic(lambda a=action: state.action_to_string(a), pjlab.IllegalActionError, str(action))
    for player in [-1, game.num_players(), 10**9, 2**63, 2**70, -(2**64)]:
        no_panic(lambda p=player: state.observation_tensor(p), pjlab.PlayerError, f"player {player} ")
        no_panic(lambda p=player: state.player_return(p), pjlab.PlayerError, f"player {player} ")
    for player in [2**63, 2**70, -(2**64)]:
        no_panic(lambda p=player: state.legal_actions(p), pjlab.PlayerError, f"player {player} ")
    no_panic(lambda: state.string_to_action("zz99"), ValueError, "zz99")
    no_panic(lambda: state.string_to_action(""), ValueError, "")
    assert str(state) == before
    assert state.history() == history
    no_panic(lambda: state.apply_seeded_chance(), ValueError, "no chance event is due")


def test_bad_chance_outcomes_leave_the_state_unchanged():
    game = pjlab.load_game("chifoumi")
    state = game.new_initial_state(seed=2)
    assert state.is_chance_node()
    before, outcomes = str(state), state.chance_outcomes()
    possible = {a for a, _ in outcomes}
    impossible = next(a for a in range(game.max_chance_outcomes()) if a not in possible)
    no_panic(lambda: state.apply_action(impossible), ValueError, "not possible")
    no_panic(lambda: state.action_to_string(impossible), ValueError, "not a possible outcome")
    for action in [-1, game.max_chance_outcomes(), 2**62]:
        no_panic(lambda a=action: state.apply_action(a), ValueError, "out of range")
    no_panic(lambda: state.string_to_action("F on 99,99"), ValueError, "not possible")
    assert str(state) == before and state.chance_outcomes() == outcomes
    assert state.history() == []


def test_actions_after_the_end_are_refused():
    state = pjlab.load_game("chomp", "2x2").new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    before = str(state)
    for action in range(4):
        no_panic(lambda a=action: state.apply_action(a), ValueError, "over")
    assert str(state) == before


def test_batch_refuses_bad_input_and_moves_no_game():
    env = pjlab.BatchedEnv("abalone", 3, variant="belgian-daisy", seed=1)
    obs, masks, _ = env.reset()
    good = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    before = [str(env.state(i)) for i in range(3)]
    bad_illegal = good.copy()
    bad_illegal[2] = int(np.flatnonzero(masks[2] == 0)[0])
    no_panic(lambda: env.step(bad_illegal), ValueError, "env 2: action")
    bad_range = good.copy()
    bad_range[1] = env.num_actions
    no_panic(lambda: env.step(bad_range), ValueError, "env 1: action")
    no_panic(lambda: env.step(good[:2]), ValueError, "actions has shape")
    no_panic(lambda: env.step(good.reshape(3, 1)), ValueError, "actions has shape")
    no_panic(lambda: env.step(good.astype(np.float64)), ValueError, "integers")
    no_panic(lambda: env.step(["a", "b", "c"]), ValueError, "integers")
    no_panic(lambda: env.state(3), ValueError, "env 3 is out of range")
    no_panic(lambda: pjlab.BatchedEnv("abalone", 0), ValueError, "at least one game")
    assert [str(env.state(i)) for i in range(3)] == before
    env.step(good)  # and the batch still works


def test_random_garbage_never_panics():
    rng = np.random.default_rng(0)
    for name in pjlab.registered_games():
        game = pjlab.load_game(name)
        state = game.new_initial_state(seed=1)
        for _ in range(300):
            action = int(rng.integers(-5, game.num_distinct_actions() + 5))
            try:
                state.apply_action(action)
            except ValueError:
                pass
            if state.is_terminal():
                state = game.new_initial_state(seed=int(rng.integers(0, 1000)))


def test_integer_arguments_out_of_range_name_the_argument():
    game = pjlab.load_game("chomp", "2x2")
    no_panic(lambda: game.new_initial_state(seed=-1), ValueError, "seed must be an integer from 0")
    no_panic(lambda: game.new_initial_state(seed=2**64), ValueError, "seed")
    no_panic(lambda: pjlab.Agent("random", "chomp", seed=-3), ValueError, "seed")
    no_panic(lambda: pjlab.BatchedEnv("chomp", -1), ValueError, "num_envs")
    no_panic(lambda: pjlab.BatchedEnv("chomp", 2**62), ValueError, "at most 65536 games")
    env = pjlab.BatchedEnv("chomp", 2, variant="2x2")
    no_panic(lambda: env.state(-1), ValueError, "env index")
    no_panic(lambda: env.reset(seed=-5), ValueError, "seed")
    no_panic(lambda: env.random_steps(-1), ValueError, "steps")
    no_panic(lambda: game.new_initial_state(seed="1"), TypeError, "integer")


def test_integers_of_any_size_get_the_documented_error():
    """Integers past 64 or 128 bits are refused like any other out of range (no OverflowError),
    naming the integer as given."""
    game = pjlab.load_game("chomp", "2x2")
    env = pjlab.BatchedEnv("chomp", 2, variant="2x2")
    for big in [2**64, 2**127, 2**128, 2**200, -(2**128)]:
        no_panic(lambda b=big: game.new_initial_state(seed=b), pjlab.ArgumentError, str(big))
        no_panic(lambda b=big: pjlab.Agent("random", "chomp", seed=b), pjlab.ArgumentError, "seed")
        no_panic(lambda b=big: env.reset(seed=b), pjlab.ArgumentError, "seed")
        no_panic(lambda b=big: env.random_steps(b), pjlab.ArgumentError, "steps")
        no_panic(lambda b=big: env.state(b), pjlab.ArgumentError, "env index")
        no_panic(lambda b=big: pjlab.BatchedEnv("chomp", b), pjlab.ArgumentError, str(big))
    position = str(game.new_initial_state())
    no_panic(
        lambda: game.action_texts([position], [[0, 2**64]]),
        pjlab.IllegalActionError,
        f"row 0: action {2**64} is out of range",
    )
    no_panic(lambda: game.policy_indices([position], [[-(2**70)]]), pjlab.IllegalActionError, "row 0")


def test_players_out_of_range_are_refused_everywhere():
    state = pjlab.load_game("pijersi").new_initial_state()
    action = state.legal_actions()[0]
    for player in [-7, 2, 9]:
        no_panic(lambda p=player: state.legal_actions(p), ValueError, "player")
        no_panic(lambda p=player: state.legal_actions_mask(p), ValueError, "player")
        no_panic(lambda p=player: state.action_to_string(p, action), ValueError, "player")
    assert state.legal_actions(1) == [] and not state.legal_actions_mask(1).any()
    assert state.action_to_string(0, action) == state.action_to_string(action)


def test_agent_errors_say_what_kind_of_player_or_network_was_wrong():
    no_panic(lambda: pjlab.Agent("alphabeta:depth=3", "chifoumi"), ValueError, "unknown player")
    no_panic(lambda: pjlab.Agent("alphabeta:depth=3", "chifoumi"), ValueError, "net:checkpoint")
    chifoumi_net = "experiments/chifoumi-learned/final"
    no_panic(
        lambda: pjlab.Agent(f"net:checkpoint={chifoumi_net}", "pijersi"),
        ValueError,
        "not a checkpoint of `pjlab train`",
    )


def test_every_refusal_is_a_pjlab_error_that_names_its_kind():
    game = pjlab.load_game("chomp")
    state = game.new_initial_state(seed=1)
    illegal = [a for a in range(game.num_distinct_actions()) if a not in state.legal_actions()]
    cases = [
        (lambda: pjlab.load_game("go"), pjlab.UnknownGameError, KeyError),
        (lambda: pjlab.load_game("chomp", "17x2"), pjlab.UnknownGameError, KeyError),
        (lambda: state.apply_action(-1), pjlab.IllegalActionError, ValueError),
        (lambda: state.apply_action(illegal[0]), pjlab.IllegalActionError, ValueError),
        (lambda: state.observation_tensor(5), pjlab.PlayerError, ValueError),
        (lambda: pjlab.Agent("alphabeta:depth=0", "chomp"), pjlab.AgentError, ValueError),
        (lambda: pjlab.Agent("nonsense", "chifoumi"), pjlab.AgentError, ValueError),
        (lambda: pjlab.Model.load("/nonexistent/model.onnx"), pjlab.NotFoundError, FileNotFoundError),
        (
            lambda: pjlab.Model.load("experiments/chifoumi-learned/final", game="pijersi"),
            pjlab.ModelError,
            ValueError,
        ),
        (lambda: pjlab.BatchedEnv("chomp", 0), pjlab.ArgumentError, ValueError),
    ]
    for call, kind, builtin in cases:
        with pytest.raises(kind) as caught:
            call()
        assert isinstance(caught.value, pjlab.Error), repr(caught.value)
        assert isinstance(caught.value, builtin), repr(caught.value)
    # A KeyError subclass still reads as its message, not a quoted repr.
    with pytest.raises(pjlab.UnknownGameError) as caught:
        pjlab.load_game("go")
    assert str(caught.value).startswith('unknown game "go"'), str(caught.value)


def test_pettingzoo_without_its_extra_says_what_to_install(monkeypatch):
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "pjlab.pettingzoo", raising=False)
    with pytest.raises(ModuleNotFoundError, match="pip install pettingzoo gymnasium"):
        importlib.import_module("pjlab.pettingzoo")


def test_a_batch_names_the_range_of_its_size():
    for bad in [-1, 0, 65537, 2**70]:
        no_panic(lambda n=bad: pjlab.BatchedEnv("chomp", n), pjlab.ArgumentError, "from 1 to 65536")
    assert len(pjlab.BatchedEnv("chomp", 1).reset()[0]) == 1
