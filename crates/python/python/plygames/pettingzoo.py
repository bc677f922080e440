"""Ply packs as PettingZoo AEC environments.

::

    from plygames.pettingzoo import PlyEnv

    env = PlyEnv("rulesets/connect_four.toml")
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

The agents are ``player_0`` (the pack's first player) and ``player_1``; ``player_names`` maps
them to the pack's names for its players. Each observation is a dict: ``observation``, the
pack's observation tensor (float32, ``plygames.Game.observation_shape``; the same for both
agents), and ``action_mask``, int8 over the pack's actions (all zeros for the agent not to
move). Rewards are given when the game ends: 1 for a win, -1 for a loss, 0 for a draw; a
side to move with no legal move while no rule ends the game ("stuck") ends it with 0 for
both. A game still going after ``max_plies`` moves is truncated.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

import plygames


class PlyEnv(AECEnv):
    """A Ply pack as a two-agent turn-based PettingZoo environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "ply_v0", "is_parallelizable": False}

    def __init__(
        self,
        pack: str | plygames.Game,
        options: dict[str, Any] | None = None,
        max_plies: int = 1000,
        render_mode: str | None = None,
    ):
        super().__init__()
        if isinstance(pack, plygames.Game):
            if options:
                raise plygames.PlyError("options go with a pack path, not a loaded Game")
            self.game = pack
        else:
            self.game = plygames.load(pack, options)
        if max_plies < 1:
            raise plygames.PlyError("max_plies must be at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise plygames.PlyError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(len(self.game.players))]
        self.player_names = dict(zip(self.possible_agents, self.game.players))
        high = 1.0
        if any(name.startswith("hand:") for name in self.game.observation_planes):
            high = float(2**16 - 1)
        elif "turn-moves" in self.game.observation_planes:
            # The moves already made in a turn of several moves: fewer than 8.
            high = 8.0
        observation = gymnasium.spaces.Box(
            low=0.0, high=high, shape=self.game.observation_shape, dtype=np.float32
        )
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": observation, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self.state: plygames.State | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The observation space of an agent (the same object each time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """The action space of an agent: the pack's actions."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Starts a game from the pack's start position (the game has no randomness: the
        seed only seeds the action spaces' sampling)."""
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.state = self.game.start()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move() or self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation tensor, and the legal-action mask when ``agent`` is to move."""
        assert self.state is not None, "reset() first"
        if agent == self._agent_to_move():
            mask = self.state.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.state.observation(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Plays the selected agent's action (None once it is terminated or truncated)."""
        assert self.state is not None, "reset() first"
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_terminal:
            returns = self.state.returns()
            for i, a in enumerate(self.possible_agents):
                if a in self.agents:
                    self.rewards[a] = float(returns[i])
                    self.terminations[a] = True
        elif self.state.ply >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self._agent_to_move() or self._next_agent(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _agent_to_move(self) -> str | None:
        assert self.state is not None
        player = self.state.player
        return None if player is None else self.possible_agents[player]

    def _next_agent(self, agent: str) -> str:
        i = self.possible_agents.index(agent)
        return self.possible_agents[(i + 1) % len(self.possible_agents)]

    def render(self) -> str | None:
        """The board as text (``ansi``), or printed (``human``)."""
        if self.state is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(pack: str, **kwargs: Any) -> PlyEnv:
    """A PlyEnv, as PettingZoo's environment modules offer one."""
    return PlyEnv(pack, **kwargs)
