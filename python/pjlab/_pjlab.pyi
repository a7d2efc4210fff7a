"""Type stubs of the Rust module ``pjlab._pjlab`` (crates/python, PyO3)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

TERMINAL_PLAYER: int
"""What ``State.current_player()`` returns once the game is over (OpenSpiel's -4)."""

def load_game(name: str, variant: str | None = None) -> Game:
    """Loads a game of the registry by name and variant.

    ``name``: ``pijersi``, ``abalone``, ``chomp`` or ``chifoumi``. ``variant``: one of
    ``Game.variants()`` (Pijersi: ``classic``, ``half-random``, ...; Abalone: ``standard``,
    ``belgian-daisy``, ``doubles``, ...; Chomp: a bar size ``MxN``; Chifoumi: ``standard``);
    ``None`` is the game's default.

    Raises ``KeyError`` for an unknown game or variant.
    """

def registered_games() -> list[str]:
    """The names ``load_game`` knows."""

class Game:
    """A game of the registry with one variant: its static facts and new states."""

    @property
    def name(self) -> str:
        """The game's name."""
    @property
    def variant(self) -> str:
        """The variant's name."""
    def variants(self) -> list[str]:
        """Every variant's name, the default first."""
    def num_players(self) -> int:
        """Number of players (seats): 2, or 4 in Abalone doubles."""
    def num_distinct_actions(self) -> int:
        """Size of the dense action space: actions are ``0 .. num_distinct_actions() - 1``."""
    def observation_tensor_shape(self) -> list[int]:
        """Shape of ``State.observation_tensor``: one flat vector."""
    def observation_tensor_size(self) -> int:
        """Number of values in an observation tensor."""
    def max_game_length(self) -> int | None:
        """Upper bound on a game's length in plies, or ``None`` when the rules set none."""
    def is_perfect_information(self) -> bool:
        """Whether every player sees the whole state (False for Chifoumi)."""
    def observation_encoding(self) -> str:
        """Name and version of the observation encoding (``pijersi-planes v1``)."""
    def new_initial_state(self, seed: int = 0) -> State:
        """A new game: the variant's setup for ``seed`` (random setups draw it; fixed setups
        ignore it; Chifoumi deals and draws its duels from a generator seeded with it)."""

class State:
    """One game in progress, with OpenSpiel's methods.

    Every method that refuses its input raises ``ValueError`` and leaves the state unchanged.
    """

    def current_player(self) -> int:
        """The player to act, or ``TERMINAL_PLAYER`` (-4) once the game is over."""
    def num_players(self) -> int:
        """Number of players."""
    def num_distinct_actions(self) -> int:
        """Size of the action space."""
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of the player to act, increasing; empty once the game is over or
        when ``player`` is not the player to act."""
    def legal_actions_mask(self, player: int | None = None) -> npt.NDArray[np.int8]:
        """The legal-action mask (1 legal, 0 not) of length ``num_distinct_actions()``."""
    def apply_action(self, action: int) -> None:
        """Plays ``action`` for the player to act.

        Raises ``ValueError`` when it is out of range or not legal (also once the game is
        over); the state is then unchanged.
        """
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def is_chance_node(self) -> bool:
        """Always False: chance is drawn inside ``apply_action`` from the state's seeded
        generator."""
    def is_player_node(self) -> bool:
        """Whether a player is to act."""
    def returns(self) -> list[float]:
        """Each player's return so far; once the game is over +1 win, 0 draw, -1 loss for
        the two-sided games (a seat gets its team's)."""
    def observation_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """What ``player`` (default: the player to act, or 0 once the game is over) observes.

        Pijersi, Abalone, Chomp: the lab's network input, the same for every player (the board
        from the side to move's point of view). Chifoumi: the player's own window and bag,
        never what it cannot see. Raises ``ValueError`` for a player out of range.
        """
    def action_to_string(self, first: int, second: int | None = None) -> str:
        """The move text of a legal action: ``action_to_string(action)`` or OpenSpiel's
        ``action_to_string(player, action)`` (UGI for Pijersi, Aba-Pro for Abalone)."""
    def string_to_action(self, text: str) -> int:
        """The action a move text names here; ``ValueError`` when it names no legal move."""
    def history(self) -> list[int]:
        """The actions applied to this object since its initial state."""
    def game_name(self) -> str:
        """The game's name."""
    def clone(self) -> State:
        """An independent copy."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: object) -> State: ...

class BatchedEnv:
    """``num_envs`` games of one kind stepped together in Rust (the GIL released), numpy arrays
    out, with automatic reset.

    Game ``k`` (0, 1, ...) of slot ``i`` starts from seed ``seeds()[i]``, a function of
    (``seed``, ``i``, ``k``): ``load_game(game, variant).new_initial_state(seeds()[i])``
    replays it. Observations are those of each game's player to act.
    """

    def __init__(
        self, game: str, num_envs: int, variant: str | None = None, seed: int = 0
    ) -> None:
        """``num_envs`` games of ``game`` and ``variant`` seeded with ``seed``; ``KeyError``
        for an unknown game or variant, ``ValueError`` for ``num_envs == 0``."""
    @property
    def num_envs(self) -> int:
        """Number of games."""
    @property
    def num_players(self) -> int:
        """Number of players of each game."""
    @property
    def num_actions(self) -> int:
        """Size of the action space."""
    @property
    def observation_size(self) -> int:
        """Length of one observation."""
    @property
    def game_name(self) -> str:
        """The game's name."""
    @property
    def variant(self) -> str:
        """The variant's name."""
    def seeds(self) -> npt.NDArray[np.uint64]:
        """The seed of each game in progress."""
    def finished(self) -> npt.NDArray[np.uint64]:
        """How many games each slot has finished since the last reset."""
    def state(self, i: int) -> State:
        """A copy of game ``i``'s state."""
    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Restarts every game (seeded anew when ``seed`` is given); returns
        ``(observations (n, size), masks (n, actions), players (n,))``."""
    def observe(
        self,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """The current ``(observations, masks, players)``."""
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """Plays ``actions[i]`` (integers, shape ``(n,)``) in game ``i`` for its player to act.

        Returns ``(observations, masks, players, rewards (n, players), terminated (n,))``: a
        game that ends gives its final returns as rewards and is replaced at once by the slot's
        next game, whose observation is returned. Every action is checked first:
        ``ValueError`` naming the first bad env (``env 3: action 7 is not legal ...``) and no
        game moves.
        """
