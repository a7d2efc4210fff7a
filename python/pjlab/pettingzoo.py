"""PettingZoo AEC environments for every game of the lab.

::

    from pjlab.pettingzoo import env
    e = env("pijersi", variant="half-random")
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        mask = obs["action_mask"]
        action = None if terminated or truncated else int(mask.nonzero()[0][0])
        e.step(action)

Agents are ``player_0`` ... ``player_{n-1}``, the game's seats (Abalone doubles has four; seats 0
and 2 play Black, 1 and 3 White, and the seat order of the variant decides who moves next).
Observations are dicts with ``"observation"`` (float32, the game's observation tensor for that
agent: the board from its own side, as OpenSpiel's ``observation_tensor(player)``) and ``"action_mask"`` (int8, 1 at the legal actions of the agent to act, all 0 for the
others), as in PettingZoo's classic environments. Rewards are each step's change of the
agents' returns: +1 / -1 / 0 when a two-sided game ends. Illegal actions raise ``ValueError``
and leave the environment unchanged; an action outside the action space fails PettingZoo's
own ``AssertOutOfBoundsWrapper`` (an ``AssertionError``), as in its classic environments. Chance events (Chifoumi's deal and duel draws) are drawn
from the game's own generator, seeded by ``reset(seed)``, before the next agent is selected:
agents only ever see player turns.

``render_mode`` is ``"ansi"`` (``render()`` returns the position's text), ``"human"`` (it
prints it) or ``"rgb_array"`` (it returns the position's picture as an ``(H, W, 3)`` uint8
array: ``State.rgb()``, the game's SVG drawing rasterised, with Chifoumi's grid seen from above,
hidden objects included).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as missing:  # pragma: no cover - depends on the environment
    raise ModuleNotFoundError(
        f"pjlab.pettingzoo needs PettingZoo and Gymnasium ({missing.name} is not installed): "
        "pip install pettingzoo gymnasium (or, from the repository, "
        "pip install './python[pettingzoo]')",
        name=missing.name,
    ) from missing

from ._pjlab import Game, State, load_game

__all__ = ["env", "raw_env"]


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """A game of the lab as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "pjlab_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str = "pijersi",
        variant: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game: Game = load_game(game, variant)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"pjlab_{self.game.name}_v0")
        n = self.game.num_players()
        actions = self.game.num_distinct_actions()
        size = self.game.observation_tensor_size()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._rng = np.random.default_rng()
        self.state: State = self.game.new_initial_state(0)
        self._returns = np.zeros(n, dtype=np.float64)
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``: a dict of observation and action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: the game's dense action indices."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` observes now, with its action mask (all 0 unless it is to act)."""
        player = self._index[agent]
        observation = self.state.observation_tensor(player)
        if player == self.state.current_player():
            mask = self.state.legal_actions_mask()
        else:
            mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game: the variant's setup for ``seed`` (or for a seed drawn from the
        generator the last seeded reset made)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed) % 2**64
        else:
            game_seed = int(self._rng.integers(0, 2**63))
        self.state = self.game.new_initial_state(game_seed)
        self._settle_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._returns = np.asarray(self.state.returns(), dtype=np.float64)
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def step(self, action: int | None) -> None:
        """Plays ``action`` for the agent to act (``None`` for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act and needs an action, not None")
        self.state.apply_action(int(action))
        self._settle_chance()
        self._cumulative_rewards[agent] = 0.0
        returns = np.asarray(self.state.returns(), dtype=np.float64)
        delta = returns - self._returns
        self._returns = returns
        for a in self.agents:
            self.rewards[a] = float(delta[self._index[a]])
        if self.state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
            following = self._index[agent] + 1
            self.agent_selection = self.possible_agents[following % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _settle_chance(self) -> None:
        """Draws every chance event due from the state's seeded generator."""
        while self.state.is_chance_node():
            self.state.apply_seeded_chance()

    def render(self) -> str | np.ndarray | None:
        """The state in the game's notation, returned for ``ansi`` and printed for ``human``; its
        picture as an ``(H, W, 3)`` uint8 array for ``rgb_array``."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.state.rgb()
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(
    game: str = "pijersi", variant: str | None = None, render_mode: str | None = None
) -> AECEnv:
    """The AEC environment of ``game`` and ``variant``, wrapped as PettingZoo's classic
    environments are: ``AssertOutOfBoundsWrapper`` (an action outside the action space is an
    ``AssertionError``) and ``OrderEnforcingWrapper``. An illegal action in range raises
    ``ValueError`` rather than ending the game."""
    e: AECEnv = raw_env(game, variant, render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
