"""The lab's board games for Python.

Games with OpenSpiel's vocabulary::

    import pjlab
    game = pjlab.load_game("abalone", variant="doubles")
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

OpenSpiel's own Python algorithms (``mcts.MCTSBot``, ``minimax.alpha_beta_search``,
``rl_environment.Environment``) take these games as they take pyspiel's: ``Game.get_type()``,
utilities, rewards, each player's observation and (Chifoumi) information state, text forms
(``State.serialize``, ``Game.deserialize_state``) and pickling. PettingZoo AEC environments in
:mod:`pjlab.pettingzoo`, and :class:`BatchedEnv` for N games
stepped together in Rust with numpy arrays out.

The lab's players and networks::

    agent = pjlab.Agent("alphabeta:depth=3", "pijersi", seed=1)
    action = agent.choose(state)                 # an index of state.legal_actions()
    model = pjlab.Model.load("runs/chomp")       # a run directory, a checkpoint, or "model.onnx"
    policy, value = model.evaluate([state])

A run's records as pyarrow tables (``pip install pyarrow``): :func:`read_games` and
:func:`read_positions`, moves decoded to action indices and notation.

Every refusal is a :class:`pjlab.Error` whose subclass names what was wrong (:mod:`pjlab.errors`)
and derives from the built-in Python code catches: :class:`UnknownGameError` (a ``KeyError``) for
an unknown game or variant; :class:`IllegalActionError`, :class:`PlayerError`,
:class:`ShapeError`, :class:`AgentError`, :class:`ModelError` and :class:`ArgumentError` (each a
``ValueError``) for an illegal or out-of-range action, a bad player, a wrong-shaped array, a
refused agent spec, a model that does not load or fit its game, another bad argument;
:class:`NotFoundError` (a ``FileNotFoundError``) for a missing model or record. The state is
then unchanged.
"""

from __future__ import annotations

# First: the extension raises these classes (pjlab.Error and its subclasses).
from . import errors
from .errors import *  # noqa: F403 (re-exported: errors.__all__)
from ._pjlab import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Agent,
    BatchedEnv,
    Game,
    Model,
    State,
    deserialize_game_and_state,
    deserialize_state,
    load_game,
    registered_games,
    serialize_game_and_state,
)
from .game_type import GameType
from .records import read_games, read_positions


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pjlab")
    except PackageNotFoundError:  # pragma: no cover - the sources imported without installing
        return "0+unknown"


__version__: str = _version()
"""The installed package's version (the workspace's, from ``Cargo.toml``)."""

__all__ = [
    "__version__",
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Agent",
    "BatchedEnv",
    "Game",
    "GameType",
    "Model",
    "State",
    "deserialize_game_and_state",
    "deserialize_state",
    "load_game",
    "read_games",
    "read_positions",
    "registered_games",
    "serialize_game_and_state",
    *errors.__all__,
]
