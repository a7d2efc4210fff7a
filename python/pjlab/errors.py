"""The exceptions pjlab raises: every refusal is a :class:`pjlab.Error`.

Each subclass also derives from the built-in exception that Python code catches for that kind of
mistake, so ``except KeyError`` and ``except ValueError`` keep working::

    try:
        pjlab.load_game("go")
    except pjlab.UnknownGameError as error:     # also a KeyError, and a pjlab.Error
        print(error)

The object a refused call was made on (a state, a batch, an agent) is left unchanged.
"""

from __future__ import annotations


class Error(Exception):
    """The base class of every exception pjlab raises for a refused call."""


class UnknownGameError(Error, KeyError):
    """A game or variant name the registry does not know (also a ``KeyError``)."""

    def __str__(self) -> str:
        # KeyError quotes its message; a pjlab message reads as written.
        return str(self.args[0]) if self.args else ""


class IllegalActionError(Error, ValueError):
    """An action index out of the game's range, or not legal in the state."""


class PlayerError(Error, ValueError):
    """A player index out of the game's players."""


class ShapeError(Error, ValueError):
    """An array or list whose length or shape does not fit."""


class AgentError(Error, ValueError):
    """An agent spec the lab refuses: an unknown agent or option, a bad value, or an agent that
    answered no legal move."""


class ModelError(Error, ValueError):
    """A network that does not load or does not fit its game (naming what differs)."""


class NotFoundError(Error, FileNotFoundError):
    """A model or record file that is not there (also a ``FileNotFoundError``)."""


class ArgumentError(Error, ValueError):
    """Another bad argument (a batch of no games, a seed out of range, ...)."""


__all__ = [
    "AgentError",
    "ArgumentError",
    "Error",
    "IllegalActionError",
    "ModelError",
    "NotFoundError",
    "PlayerError",
    "ShapeError",
    "UnknownGameError",
]
