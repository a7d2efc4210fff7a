"""Type stubs of the Rust module ``pjlab._pjlab`` (crates/python, PyO3)."""

from __future__ import annotations

import os
import pathlib

from typing import Any

import numpy as np
import numpy.typing as npt

TERMINAL_PLAYER: int
"""What ``State.current_player()`` returns once the game is over (OpenSpiel's -4)."""
CHANCE_PLAYER: int
"""What ``State.current_player()`` returns at a chance node (OpenSpiel's -1)."""

def load_game(name: str, variant: str | None = None) -> Game:
    """Loads a game of the registry by name and variant.

    ``name``: ``pijersi``, ``abalone``, ``chomp`` or ``chifoumi``. ``variant``: one of
    ``Game.variants()`` (Pijersi: ``classic``, ``half-random``, ...; Abalone: ``standard``,
    ``belgian-daisy``, ``doubles``, ...; Chomp: a bar size ``MxN``; Chifoumi: ``standard``);
    ``None`` is the game's default. ``name`` may also be a game's text ``name(variant=...)``
    (``Game.serialize()``).

    Raises ``KeyError`` for an unknown game or variant.
    """

def registered_games() -> list[str]:
    """The names ``load_game`` knows."""

def deserialize_state(text: str) -> State:
    """The state a text of ``State.serialize()`` describes, of the game the text names (what
    unpickling a ``State`` calls). Raises ``ValueError`` for another text, ``KeyError`` for an
    unknown game."""

def serialize_game_and_state(game: Game, state: State) -> str:
    """OpenSpiel's ``serialize_game_and_state``: ``state.serialize()`` (which names its game),
    after checking that ``state`` is of ``game`` (``ValueError`` otherwise)."""

def deserialize_game_and_state(text: str) -> tuple[Game, State]:
    """OpenSpiel's ``deserialize_game_and_state``: the game and the state of a state's text."""

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
        """Upper bound on a game's length in player turns (chance events not counted), or
        ``None`` when the rules set none."""
    def max_chance_outcomes(self) -> int:
        """The number of distinct chance outcomes: 0 for the games without chance nodes (their
        setups are drawn from the seed at once); for Chifoumi the grid's cells (the deal's
        outcomes are cell indices ``row * width + col``, a duel draw's the types F=0, P=1, C=2)."""
    def is_perfect_information(self) -> bool:
        """Whether every player sees the whole state (False for Chifoumi)."""
    def observation_encoding(self) -> str:
        """Name and version of the observation encoding (``pijersi-planes v1``)."""
    def new_initial_state(self, seed: int = 0) -> State:
        """A new game: the variant's setup for ``seed`` (random setups draw it; fixed setups
        ignore it). A Chifoumi state starts at the first chance node of its deal; ``seed``
        seeds the generator ``State.apply_seeded_chance`` draws from."""
    def state_from_text(self, text: str) -> State:
        """The state of a position in the game's text form (a record's ``start`` or
        ``position``: PSN for Pijersi, Abalone's position text, ``<m>x<n>:<lengths>:<side>``
        for Chomp) under this variant's rules, with an empty history.

        Raises ``ValueError`` for a text that is no position of the game (Chifoumi has none).
        """
    def decode_moves(self, start: str, moves: list[str]) -> list[int]:
        """The action indices of ``moves`` (move texts in the game's notation) played in turn
        from the position text ``start``. Raises ``ValueError`` naming the first move that is
        not legal (``move 3: ...``)."""
    def decode_games(self, starts: list[str], moves: list[list[str]]) -> list[list[int]]:
        """``decode_moves`` for many games (one start and one list of moves each), the GIL
        released; ``ValueError`` names the row (``row 4: move 3: ...``)."""
    def action_texts(self, positions: list[str], actions: list[list[int]]) -> list[list[str]]:
        """The move texts of action indices: for each position text, those of its list of
        actions (which must be legal there), the GIL released."""
    def policy_indices(self, positions: list[str], actions: list[list[int]]) -> list[list[int]]:
        """Where action indices go in a network's policy row (the model card's view: the
        mover's; Pijersi and Abalone mirror the second side's actions, Chomp keeps them): for
        each position text, the policy indices of its list of actions. What a training target
        built from a positions record (``policy_actions``, ``policy_probs``) needs."""
    def encode_positions(self, positions: list[str]) -> npt.NDArray[np.float32]:
        """The observations of position texts, from the player to act's view, as float32
        ``[N, observation_tensor_size()]`` (what the lab's networks take)."""
    def get_type(self) -> Any:
        """The game's static facts in OpenSpiel's terms: a ``pyspiel.GameType`` when OpenSpiel
        is installed (so that its algorithms compare the enums), else a ``pjlab.GameType`` with
        the same fields (``short_name``, ``long_name``, ``dynamics``, ``chance_mode``,
        ``information``, ``utility``, ``reward_model``, ``max_num_players``,
        ``min_num_players``, ``provides_information_state_string`` / ``_tensor``,
        ``provides_observation_string`` / ``_tensor``, ...). Every game is ``SEQUENTIAL``,
        ``ZERO_SUM`` and ``TERMINAL``; Chifoumi is ``EXPLICIT_STOCHASTIC`` and
        ``IMPERFECT_INFORMATION`` and the one game with information states."""
    def min_utility(self) -> float:
        """The lowest return a player can get (-1)."""
    def max_utility(self) -> float:
        """The highest return a player can get (+1)."""
    def utility_sum(self) -> float:
        """The sum of the players' returns in every terminal state (0: zero-sum; in Abalone
        doubles the two sides' seats each get their side's return)."""
    def information_state_tensor_size(self) -> int:
        """Length of ``State.information_state_tensor`` (Chifoumi). Raises ``ValueError`` for
        the perfect-information games, which provide none."""
    def information_state_tensor_shape(self) -> list[int]:
        """Shape of an information-state tensor: one flat vector."""
    def serialize(self) -> str:
        """The game as text, ``name(variant=...)``: ``load_game`` reads it back."""
    def deserialize_state(self, text: str) -> State:
        """The state a text of ``State.serialize()`` describes, with its history. Raises
        ``ValueError`` for a text of another game or variant, or no state text."""
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling: ``load_game(name, variant)``."""
    def __eq__(self, other: object) -> bool:
        """Whether ``other`` is the same game and variant."""
    def __hash__(self) -> int: ...

class State:
    """One game in progress, with OpenSpiel's methods.

    Every method that refuses its input raises ``ValueError`` and leaves the state unchanged.
    """

    def current_player(self) -> int:
        """The player to act, ``CHANCE_PLAYER`` (-1) at a chance node, or ``TERMINAL_PLAYER``
        (-4) once the game is over."""
    def num_players(self) -> int:
        """Number of players."""
    def num_distinct_actions(self) -> int:
        """Size of the action space."""
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of the player to act, increasing; empty once the game is over or
        when ``player`` is not the player to act. At a chance node, the possible outcomes.
        Raises ``ValueError`` for a player out of range."""
    def legal_actions_mask(self, player: int | None = None) -> npt.NDArray[np.int8]:
        """The legal-action mask (1 legal, 0 not) of length ``num_distinct_actions()``; at a
        chance node the possible outcomes' mask, of length ``Game.max_chance_outcomes()``."""
    def apply_action(self, action: int) -> None:
        """Plays ``action`` for the player to act, or applies outcome ``action`` at a chance
        node.

        Raises ``ValueError`` when it is out of range or not legal (also once the game is
        over); the state is then unchanged.
        """
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def is_chance_node(self) -> bool:
        """Whether a chance event is due. Chifoumi has two kinds: the deal (each object's cell,
        then each player's) and, after ``DUEL``, the trigger's draw then the target's. The
        other games have none."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance event due now with their probabilities, as ``(action,
        probability)`` pairs by increasing action; empty at a player's turn."""
    def apply_seeded_chance(self) -> int:
        """Draws the outcome of the chance event due now from the state's own generator (seeded
        by ``Game.new_initial_state(seed)``) exactly as the lab's Rust game draws it, applies
        it and returns it. Raises ``ValueError`` when no chance event is due."""
    def is_player_node(self) -> bool:
        """Whether a player is to act."""
    def returns(self) -> list[float]:
        """Each player's return so far; once the game is over +1 win, 0 draw, -1 loss for
        the two-sided games (a seat gets its team's)."""
    def rewards(self) -> list[float]:
        """What each player gained by the last transition: the games score only at their end,
        so the returns once the game is over and 0 before."""
    def player_return(self, player: int) -> float:
        """``returns()[player]``; ``ValueError`` for a player out of range."""
    def move_number(self) -> int:
        """How many player moves were applied to this object (chance outcomes not counted)."""
    def history_str(self) -> str:
        """``history()`` as text: the actions separated by ``", "``."""
    def observation_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """What ``player`` (default: the player to act, or 0 once the game is over) observes:
        each player its own view.

        Pijersi, Abalone: the board from ``player``'s side; for the player to act, the lab's
        network input bit for bit (what ``BatchedEnv`` and ``Game.encode_positions`` give), for
        another the same board with its seat to move (it does not say whose turn it is:
        ``current_player()`` does). Chomp is impartial and shows no side: the same for both.
        Chifoumi: the player's own window and bag, never what it cannot see. Raises
        ``ValueError`` for a player out of range.
        """
    def observation_string(self, player: int | None = None) -> str:
        """What ``player`` observes, in words: the position text in the perfect-information
        games; in Chifoumi the player's turn, cell, bag, the opponent when in view, its window
        and the duel's draws once fought."""
    def information_state_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """Everything ``player`` may know of a Chifoumi game so far, of length
        ``Game.information_state_tensor_size()``: row ``k`` is its ``k``-th observation tensor
        (after the deal, then after every turn; rows not reached are 0), then the duel's draws
        once revealed (its own one-hot F, P, C, then the opponent's). Raises ``ValueError`` for
        the perfect-information games, which provide none."""
    def information_state_string(self, player: int | None = None) -> str:
        """The same in words: one ``observation_string`` line per observation since the deal."""
    def serialize(self) -> str:
        """The whole state as text, with its game, history and move number (for Chifoumi the
        deal, the moves and the generator's position): ``Game.deserialize_state`` reads it back
        into a state that plays on identically. Raises ``ValueError`` for a Chifoumi game set up
        by hand."""
    def get_game(self) -> Game:
        """The game (and variant) this state is of."""
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling: ``deserialize_state(self.serialize())``."""
    def action_to_string(self, first: int, second: int | None = None) -> str:
        """The move text of a legal action: ``action_to_string(action)`` or OpenSpiel's
        ``action_to_string(player, action)`` (UGI for Pijersi, Aba-Pro for Abalone). At a
        Chifoumi chance node, the outcome's text (``F on 4,7``, ``player 1 on 0,3``, ``player 0
        draws P``; cells ``row,col`` from 0)."""
    def string_to_action(self, text: str) -> int:
        """The action a move text (or, at a chance node, an outcome text) names here;
        ``ValueError`` when it names no legal move."""
    def history(self) -> list[int]:
        """The actions applied to this object since its initial state, chance outcomes
        included (through ``apply_action`` or ``apply_seeded_chance``)."""
    def game_name(self) -> str:
        """The game's name."""
    def svg(self) -> str:
        """The position as a self-contained SVG picture: the board, the pieces, whose turn it is
        or the result, the last move played with ``apply_action`` marked. Every piece is an
        element of class ``piece`` with a ``data-cell`` attribute naming its cell. Raises
        ``ValueError`` for Chifoumi, whose pictures are whole matches (``pjlab chifoumi show``)."""
    def rgb(self, scale: float = 1.0) -> npt.NDArray[np.uint8]:
        """The position as an ``(H, W, 3)`` uint8 array of RGB pixels (PettingZoo's
        ``rgb_array``): ``svg()`` rasterised at ``scale`` times its size (a few hundred pixels a
        side at 1; from 0.05 to 8, else ``ValueError``), text in the machine's fonts; for
        Chifoumi, the grid of the position seen from above (walls, each player's visibility
        square, the objects, both players)."""
    def _repr_svg_(self) -> str | None:
        """Jupyter's rich display: ``svg()``, or ``None`` for Chifoumi."""
    def clone(self) -> State:
        """An independent copy."""
    def __copy__(self) -> State:
        """An independent copy (``copy.copy``)."""
    def __deepcopy__(self, _memo: object) -> State:
        """An independent copy (``copy.deepcopy``)."""

class BatchedEnv:
    """``num_envs`` games of one kind stepped together in Rust (the GIL released), numpy arrays
    out, with automatic reset.

    Game ``k`` (0, 1, ...) of slot ``i`` starts from seed ``seeds()[i]``, seed ``k`` of stream
    ``i`` under ``seed`` (the lab's seed derivation, ``pjlab_core::seed::stream``):
    ``load_game(game, variant).new_initial_state(seeds()[i])`` replays it. Observations are
    those of each game's player to act (the lab's network input).
    """

    def __init__(
        self, game: str, num_envs: int, variant: str | None = None, seed: int = 0
    ) -> None:
        """``num_envs`` games of ``game`` and ``variant`` seeded with ``seed``; ``KeyError``
        for an unknown game or variant, ``ValueError`` for ``num_envs`` outside 1 to 65,536 or
        a negative seed."""
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
        """A copy of game ``i``'s state, as a new ``State`` whose ``history()`` starts empty
        (``Game.new_initial_state(seeds()[i])`` given the same actions replays it with its
        history)."""
    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Restarts every game and returns ``(observations (n, size), masks (n, actions),
        players (n,))``. Without ``seed``, the new games start from the last reset's seed plus
        one (the constructor's seed counts as a reset): successive ``reset()`` calls give new
        games, reproducibly."""
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
    def random_steps(self, steps: int, seed: int = 0) -> int:
        """Plays ``steps`` steps with uniformly random legal actions chosen in Rust (seeded),
        the GIL released; returns how many games finished. The Rust-alone side of
        ``python/bench/batched.py``. Ctrl-C stops it between two steps with
        ``KeyboardInterrupt``, the env as after its last step."""

class Agent:
    """One of the lab's players for one game, built from its spec: every spec of the binary's
    ``pjlab match --a/--b`` (``pjlab_train::agent::build``).

    - ``random``, ``greedy``
    - ``alphabeta:depth=3``, ``alphabeta:time=100ms``, ``alphabeta:eval=nnue:FILE`` (Pijersi)
    - ``mcts:sims=800`` (and MCTS's other options)
    - ``net:checkpoint=DIR`` (a training checkpoint or run directory of this game) or
      ``net:checkpoint=model.onnx`` (an ONNX model that follows the game's model card, the
      lab's own ``pjlab export`` or a foreign one; see ``Model.load``), with ``sims=N`` or
      ``time=T``
    - ``ugi:cmd=<engine>`` (an external engine)

    For Chifoumi, the specs of ``pjlab chifoumi``: ``random``, ``focused:F`` (``P``, ``C``),
    ``greedy``, ``avoider``, ``counter``, ``counter-reset``, ``observer``, ``lurker``,
    ``ismcts:sims=400`` and ``net:checkpoint=DIR`` (a network of ``pjlab chifoumi train``).
    These players remember what they saw, so ``choose`` replays the state's ``history()`` to
    show the player every turn of its seat, as a match does; one agent plays one seat of a game,
    and a history that does not continue the one it followed starts a new game for it.

    An agent plays one call at a time: a second thread calling it meanwhile waits for the
    first call to end.
    """

    def __init__(self, spec: str, game: Game | str, seed: int = 0) -> None:
        """The agent ``spec`` names for ``game`` (a ``Game`` or a name), its random choices
        seeded with ``seed`` (unless the spec sets ``seed=``).

        Raises ``KeyError`` for an unknown game, ``ValueError`` for an unknown agent or option,
        a bad value, a checkpoint of another game, or a model that does not fit the game's
        model card (naming what differs: expected and found).
        """
    def choose(self, state: State) -> int:
        """The action it plays in ``state``: one of ``state.legal_actions()``; ``state`` is not
        changed. The search runs with the GIL released (other Python threads go on), on a
        worker thread that Ctrl-C leaves at once: the call raises ``KeyboardInterrupt`` within
        milliseconds and the search stops as quickly (alpha-beta, MCTS, Chifoumi's ISMCTS; an
        external engine is sent ``stop`` and killed if it does not answer within 200 ms, the
        next call starting a fresh one). Agents that do not search (``random``, ``greedy``,
        Chifoumi's scripted players) answer on the calling thread, in microseconds.

        Raises ``ValueError`` for a state of another game, a finished game or a chance node.
        """
    def new_game(self, seed: int) -> None:
        """Reseeds its random choices and forgets earlier games (hash tables, search trees).
        It waits for a choice an interrupted ``choose`` left running (Ctrl-C leaves the wait;
        the reseeding still happens once the agent is free)."""
    @property
    def spec(self) -> str:
        """The spec it was built from."""
    @property
    def game_name(self) -> str:
        """Its game's name."""

class Model:
    """A policy/value network of one game: a training checkpoint, or an ONNX model that follows
    the game's model card.

    The card (``model.json`` beside ``model.onnx``, written by ``pjlab export``) names the game
    and encoder; the graph must have one float input ``input`` of shape ``[batch,
    observation_tensor_size]`` and float outputs ``policy_logits`` ``[batch, actions]`` and
    ``wdl_logits`` ``[batch, 3]`` (win, draw, loss logits for the side to move); the batch
    dimension may be symbolic or 1. A model trained anywhere (PyTorch, ...) plays in the lab
    when it follows this: ``pjlab match --a net:checkpoint=model.onnx``.
    """

    @staticmethod
    def load(path: str | os.PathLike[str], game: Game | str | None = None) -> Model:
        """Loads a checkpoint directory (or a run directory: its latest checkpoint) or an
        ``.onnx`` file. ``game``: its game; by default the checkpoint's, or the game the card
        beside the ``.onnx`` names. An ONNX model's inputs are built by the encoder its card
        names (Chomp: of its bar); without a card, by the encoder of ``game``'s variant when
        ``game`` is a ``Game``, else by the encoder whose input width is the model's declared
        input width (among the game's variants and its default config's: Chomp's bar of that
        many squares), else by the default variant's, the model then refused naming the input
        shapes expected and found.

        Raises ``FileNotFoundError`` when nothing is at ``path``; ``ValueError`` when the
        checkpoint is of another game or does not load, when the ONNX model or its card does
        not fit the game (``model.onnx does not fit chomp's model card: input name: expected
        "input", found "obs"``), or when no game is named or found.
        """
    def evaluate(
        self, batch: list[State] | npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(policy, value)`` for a batch, the GIL released: ``batch`` is a list of states of
        the game, or observations shaped ``[N, input_size]`` (cast to float32).

        ``policy``: float32 ``[N, num_actions]`` logits (not normalised, illegal actions not
        masked). For states, ``policy[i, a]`` is the logit of state ``i``'s action ``a``; for
        observations, the network's raw output, in its own action view (the mover's, as the
        card says). ``value``: float32 ``[N]``, P(win) - P(loss) for the player to act.

        Raises ``ValueError`` for states of another game or observations of another width.
        """
    @property
    def game_name(self) -> str:
        """Its game's name."""
    @property
    def format(self) -> str:
        """``checkpoint`` or ``onnx``."""
    @property
    def encoding(self) -> str:
        """Its encoder's name and version (``pijersi-planes v1``)."""
    @property
    def input_size(self) -> int:
        """Values in one observation."""
    @property
    def num_actions(self) -> int:
        """Policy logits in one row."""
    @property
    def path(self) -> pathlib.Path:
        """The path it was loaded from."""
