"""OpenSpiel's ``GameType`` for the lab's games: what ``Game.get_type()`` returns.

With OpenSpiel installed (``pip install open_spiel``), ``get_type()`` returns a real
``pyspiel.GameType``, so that OpenSpiel's algorithms (``mcts.MCTSBot``,
``minimax.alpha_beta_search``, ``rl_environment.Environment``), which compare its fields with
pyspiel's enums, accept the lab's games. Without it, :class:`GameType` here: the same fields,
and enums of the same names (``GameType.Dynamics.SEQUENTIAL``, ...).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

__all__ = ["GameType", "make"]


class Dynamics(enum.Enum):
    """How the players move (OpenSpiel's ``GameType.Dynamics``)."""

    SIMULTANEOUS = 0
    SEQUENTIAL = 1
    MEAN_FIELD = 2


class ChanceMode(enum.Enum):
    """How chance enters the game (OpenSpiel's ``GameType.ChanceMode``)."""

    DETERMINISTIC = 0
    EXPLICIT_STOCHASTIC = 1
    SAMPLED_STOCHASTIC = 2


class Information(enum.Enum):
    """What the players see (OpenSpiel's ``GameType.Information``)."""

    ONE_SHOT = 0
    PERFECT_INFORMATION = 1
    IMPERFECT_INFORMATION = 2


class Utility(enum.Enum):
    """How the returns relate (OpenSpiel's ``GameType.Utility``)."""

    ZERO_SUM = 0
    CONSTANT_SUM = 1
    GENERAL_SUM = 2
    IDENTICAL = 3


class RewardModel(enum.Enum):
    """When rewards come (OpenSpiel's ``GameType.RewardModel``)."""

    REWARDS = 0
    TERMINAL = 1


@dataclasses.dataclass(frozen=True)
class GameType:
    """A game's static facts with OpenSpiel's ``GameType`` fields and enum names."""

    short_name: str
    long_name: str
    dynamics: Dynamics
    chance_mode: ChanceMode
    information: Information
    utility: Utility
    reward_model: RewardModel
    max_num_players: int
    min_num_players: int
    provides_information_state_string: bool
    provides_information_state_tensor: bool
    provides_observation_string: bool
    provides_observation_tensor: bool
    parameter_specification: dict[str, Any] = dataclasses.field(default_factory=dict)
    default_loadable: bool = True
    provides_factored_observation_string: bool = False

    # The enums under pyspiel's names: GameType.Dynamics.SEQUENTIAL, ...
    Dynamics = Dynamics
    ChanceMode = ChanceMode
    Information = Information
    Utility = Utility
    RewardModel = RewardModel


_ENUMS = ("dynamics", "chance_mode", "information", "utility", "reward_model")
_ENUM_CLASSES = {
    "dynamics": "Dynamics",
    "chance_mode": "ChanceMode",
    "information": "Information",
    "utility": "Utility",
    "reward_model": "RewardModel",
}
_pyspiel: Any = None
_looked = False


def _open_spiel() -> Any:
    """``pyspiel`` when it can be imported (looked up once), else ``None``."""
    global _pyspiel, _looked
    if not _looked:
        _looked = True
        try:
            import pyspiel
        except ImportError:
            pyspiel = None
        _pyspiel = pyspiel
    return _pyspiel


def make(**fields: Any) -> Any:
    """The game type of ``fields`` (enum fields by name, as ``"SEQUENTIAL"``): a
    ``pyspiel.GameType`` when OpenSpiel is installed, else a :class:`GameType`."""
    pyspiel = _open_spiel()
    owner: Any = pyspiel.GameType if pyspiel is not None else GameType
    for field in _ENUMS:
        fields[field] = getattr(getattr(owner, _ENUM_CLASSES[field]), fields[field])
    if pyspiel is not None:
        return pyspiel.GameType(**fields)
    return GameType(**fields)
