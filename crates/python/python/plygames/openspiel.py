"""Ply packs as OpenSpiel games.

Importing this module registers the game ``ply`` with OpenSpiel (``pyspiel``). Any pack is
then loaded by name, with the pack and its options as parameters, and OpenSpiel's own
algorithms (MCTS, alpha-beta, the consistency tests) run on it::

    import pyspiel
    import plygames.openspiel  # registers "ply"

    game = pyspiel.load_game("ply", {"pack": "rulesets/checkers.toml"})
    game = pyspiel.load_game("ply(pack=rulesets/cats_rabbits.toml,options=multi_hop:true)")

Parameters:

- ``pack``: the pack's path (required).
- ``options``: option values as ``name:value`` (or ``name=value``, but not in a game string,
  whose parser takes ``=`` for its own) pairs separated by ``;`` (``multi_hop:true``).
- ``max_plies``: a game still going after this many moves ends as a draw (OpenSpiel needs a
  bound on a game's length), 1000 by default.

Actions are the pack's action encoding (``plygames.Game.num_actions``); the observation
tensor is ``plygames.State.observation()`` (``plygames.Game.observation_shape``). A position
whose side to move has no legal move while no rule ends the game ("stuck") is terminal, with
returns 0 for both.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import plygames

SHORT_NAME = "ply"

_DEFAULT_MAX_PLIES = 1000

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Ply rule pack",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"pack": "", "options": "", "max_plies": _DEFAULT_MAX_PLIES},
)


def parse_options(text: str) -> dict[str, str]:
    """Option values from ``name:value`` or ``name=value`` pairs separated by ``;`` (values
    stay text: the pack reads each by its option's type)."""
    out: dict[str, str] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        cut = min((i for i in (part.find(":"), part.find("=")) if i >= 0), default=-1)
        name, value = part[:cut].strip(), part[cut + 1 :].strip()
        if cut < 0 or not name:
            raise plygames.PlyError(f"option `{part}` is not written name:value")
        out[name] = value
    return out


class PlyGame(pyspiel.Game):
    """A Ply pack as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        pack = params.get("pack", "")
        if not pack:
            raise plygames.PlyError(
                'the OpenSpiel game "ply" needs the parameter pack, the path of a rule pack'
            )
        max_plies = int(params.get("max_plies", _DEFAULT_MAX_PLIES))
        if max_plies < 1:
            raise plygames.PlyError("max_plies must be at least 1")
        self.ply_game = plygames.load(pack, parse_options(str(params.get("options", ""))))
        self.max_plies = max_plies
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ply_game.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_plies,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> "PlyState":
        """The pack's starting position."""
        return PlyState(self, self.ply_game.start())

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of the pack's observation tensor (perfect information)."""
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return PlyObserver(self.ply_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class PlyState(pyspiel.State):
    """A position of a Ply pack as an OpenSpiel state."""

    def __init__(self, game: PlyGame, state: plygames.State):
        super().__init__(game)
        self.ply_state = state
        self._max_plies = game.max_plies

    def _capped(self) -> bool:
        return self.ply_state.ply >= self._max_plies

    def current_player(self) -> int:
        """The player to move, or ``pyspiel.PlayerId.TERMINAL``."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.ply_state.player

    def _legal_actions(self, player: int) -> list[int]:
        return self.ply_state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.ply_state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.ply_state.game.describe_action(action)

    def is_terminal(self) -> bool:
        """Over, stuck, or at the ply cap."""
        return self.ply_state.is_terminal or self._capped()

    def returns(self) -> list[float]:
        """1 for a win, -1 for a loss, 0 for a draw, the cap, or a stuck side."""
        return list(self.ply_state.returns())

    def __str__(self) -> str:
        return self.ply_state.position


class PlyObserver:
    """The observation tensor of a pack, in OpenSpiel's PyObserver interface."""

    def __init__(self, game: plygames.Game, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        shape = game.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: PlyState, player: int) -> None:
        """Fills the tensor from ``state`` (the same for both players)."""
        del player
        self.tensor[:] = state.ply_state.observation().ravel()

    def string_from(self, state: PlyState, player: int) -> str:
        """The position string."""
        del player
        return state.ply_state.position


pyspiel.register_game(_GAME_TYPE, PlyGame)
