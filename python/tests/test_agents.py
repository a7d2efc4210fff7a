"""pjlab.Agent: the lab's players by spec, on every game."""

from __future__ import annotations

import pytest

import pjlab
from conftest import BOARD_GAMES

SPECS = ["random", "greedy", "alphabeta:depth=1", "mcts:sims=16"]


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_agents_play_legal_moves_to_the_end(name):
    game = pjlab.load_game(name)
    state = game.new_initial_state(seed=3)
    # Two fast agents move in turn (each checked on every move); the others choose once.
    players = [pjlab.Agent("random", game, seed=1), pjlab.Agent("alphabeta:depth=1", name, seed=2)]
    for spec in SPECS:
        action = pjlab.Agent(spec, game, seed=5).choose(state)
        assert action in state.legal_actions(), spec
    plies = 0
    while not state.is_terminal():
        before = str(state)
        legal = state.legal_actions()
        action = players[plies % 2].choose(state)
        assert str(state) == before, "choose must not change the state"
        assert action in legal
        state.apply_action(action)
        plies += 1
        assert plies < 5000, "the game should end"
    assert len(state.returns()) == game.num_players()


def test_a_seeded_random_agent_repeats_its_choices():
    game = pjlab.load_game("pijersi")
    state = game.new_initial_state()
    first = [pjlab.Agent("random", game, seed=9).choose(state) for _ in range(3)]
    assert len(set(first)) == 1
    agent = pjlab.Agent("random", game, seed=9)
    choices = {agent.choose(state) for _ in range(20)}
    assert len(choices) > 1, "one agent draws anew each move"


def immediate_wins(state):
    """The legal actions after which the game is over and the mover has won: from the rules,
    by playing each one on a copy."""
    mover = state.current_player()
    wins = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() and after.returns()[mover] > 0:
            wins.append(action)
    return wins


@pytest.mark.parametrize("name", ["pijersi", "chomp"])
def test_alphabeta_depth_1_takes_an_immediate_win(name):
    game = pjlab.load_game(name)
    walker = pjlab.Agent("random", game, seed=4)
    found = 0
    for seed in range(200):
        state = game.new_initial_state(seed=seed)
        walker.new_game(seed)
        while not state.is_terminal():
            wins = immediate_wins(state)
            if wins and len(wins) < len(state.legal_actions()):
                agent = pjlab.Agent("alphabeta:depth=1", game, seed=seed)
                assert agent.choose(state) in wins, str(state)
                found += 1
                break
            state.apply_action(walker.choose(state))
        if found >= 3:
            break
    assert found >= 3, "random games should reach positions with a winning move"


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="unknown agent `nosuch`"):
        pjlab.Agent("nosuch", "pijersi")
    with pytest.raises(ValueError, match="depth"):
        pjlab.Agent("alphabeta:depht=3", "pijersi")
    with pytest.raises(pjlab.AgentError, match="gives option `depth` more than once"):
        pjlab.Agent("alphabeta:depth=3,tt=8,depth=4", "pijersi")
    with pytest.raises(pjlab.AgentError, match="option `sims` more than once"):
        pjlab.Agent("ismcts:sims=10,sims=20", "chifoumi")
    with pytest.raises(KeyError, match="unknown game"):
        pjlab.Agent("random", "go")
    with pytest.raises(ValueError, match="focused:X"):
        pjlab.Agent("focused:X", "chifoumi")
    with pytest.raises(ValueError, match="a chance event is due"):
        pjlab.Agent("random", "chifoumi").choose(pjlab.load_game("chifoumi").new_initial_state())
    with pytest.raises(FileNotFoundError):
        pjlab.Model.load("/nonexistent/model.onnx")
    with pytest.raises(ValueError, match="not chomp|plays pijersi, not chomp"):
        pjlab.Agent("random", "pijersi").choose(pjlab.load_game("chomp").new_initial_state())
    state = pjlab.load_game("chomp").new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    with pytest.raises(ValueError, match="over"):
        pjlab.Agent("random", "chomp").choose(state)


def play_chifoumi(specs, seed):
    """A game of Chifoumi between two agents, chance drawn from the state's generator; returns
    the state's history (chance outcomes and actions) and the returns."""
    state = pjlab.load_game("chifoumi").new_initial_state(seed)
    agents = [pjlab.Agent(spec, "chifoumi", seed=seed + k) for k, spec in enumerate(specs)]
    while True:
        while state.is_chance_node():
            state.apply_seeded_chance()
        if state.is_terminal():
            return state.history(), state.returns()
        before = str(state)
        action = agents[state.current_player()].choose(state)
        assert str(state) == before, "choose leaves the state unchanged"
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("specs", [("observer", "counter"), ("greedy", "focused:C"), ("random", "ismcts:sims=20")])
def test_chifoumi_agents_play_whole_games_reproducibly(specs):
    for seed in range(3):
        history, returns = play_chifoumi(specs, seed)
        assert play_chifoumi(specs, seed) == (history, returns)
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    assert len(history) > 32, "the deal's 32 chance events and some turns"
