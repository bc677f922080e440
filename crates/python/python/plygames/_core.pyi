"""Type stubs of the extension module ``plygames._core`` (see ``plygames``)."""

from __future__ import annotations

import os
from typing import Literal

import numpy as np
import numpy.typing as npt

ROUTES: int
"""How many hop chains with the same ends (and choice and second part) the action encoding
tells apart, in packs whose hop patterns chain."""

class PlyError(Exception):
    """The base of every error Ply raises."""

class PackError(PlyError):
    """A pack that does not load."""

    diagnostics: list[Diagnostic]
    """Every problem found, errors first."""
    file: str | None
    """The first error's file."""
    line: int | None
    """The first error's line, from 1."""
    column: int | None
    """The first error's column, from 1, in characters."""
    message: str | None
    """The first error's message."""

class IllegalMoveError(PlyError):
    """A move the rules refuse; nothing changed."""

    move: str
    """The move as given (or ``action N (cells)`` for an action)."""
    rule: str | None
    """The name of the rule that refused it, when a named rule did."""
    reason: str
    """What is wrong."""

class NotationError(PlyError):
    """Text that is not a move in notation, or a cell the board does not have."""

class PositionError(PlyError):
    """A position string or FEN that cannot be read, or FEN asked of a pack without it."""

class EngineError(PlyError):
    """An engine spec that does not read, or a search with no move to find."""

class ActionError(PlyError):
    """An action outside the action space, or moves the encoding cannot number."""

class Diagnostic:
    """One problem of a pack, located in its file."""

    severity: Literal["error", "warning"]
    message: str
    file: str | None
    line: int | None
    column: int | None
    label: str | None
    help: str | None
    rendered: str
    """The diagnostic as ``ply validate`` prints it."""

OptionValue = bool | int | str

def load(path: str | os.PathLike[str], options: dict[str, OptionValue] | None = None) -> Game:
    """Loads the pack at ``path`` with option values; raises ``PackError``."""

def load_str(
    text: str, name: str = "pack.toml", options: dict[str, OptionValue] | None = None
) -> Game:
    """Loads a pack from its text (``name`` is the file name diagnostics give)."""

class Game:
    """A loaded pack."""

    @property
    def name(self) -> str: ...
    @property
    def players(self) -> list[str]:
        """The two players' names, first to move first."""
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def kinds(self) -> list[str]: ...
    @property
    def options(self) -> dict[str, bool | int]:
        """The option values in force."""
    @property
    def warnings(self) -> list[Diagnostic]: ...
    @property
    def resolved(self) -> str:
        """The pack with ``extends`` and options applied, as TOML."""
    @property
    def has_fen(self) -> bool: ...
    @property
    def num_actions(self) -> int:
        """Every action is an integer from 0 below this."""
    @property
    def action_layout(self) -> dict[str, int | bool]:
        """``cells``, ``choices``, ``seconds``, ``removals``, ``routes``, ``piece_moves``,
        ``placements``, ``pass`` (see the README's action encoding)."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """(planes, rows, cols)."""
    @property
    def observation_planes(self) -> list[str]:
        """What each plane holds: ``piece:CODE``, ``board``, ``zone:NAME[:PLAYER]``,
        ``to-move:FIRST``, ``hand:CODE``."""
    def describe_action(self, action: int) -> str:
        """An action in words, whatever the position (``a7-a6``, ``e7-e8=Q``, ``pass``)."""
    def start(self) -> State:
        """The standard starting position."""
    def state(self, position: str) -> State:
        """A position from a position string or FEN; raises ``PositionError``."""
    def from_fen(self, fen: str) -> State:
        """A position from FEN; raises ``PositionError``."""

class State:
    """A position and the moves played on it since it was created."""

    @property
    def game(self) -> Game: ...
    @property
    def status(self) -> Literal["playing", "over", "stuck"]: ...
    @property
    def is_terminal(self) -> bool:
        """Over, or stuck (no legal move and no rule ends the game)."""
    @property
    def to_move(self) -> str | None: ...
    @property
    def player(self) -> int | None:
        """0 or 1, the player to move; None once nothing can be played."""
    @property
    def winner(self) -> str | None: ...
    @property
    def is_draw(self) -> bool: ...
    @property
    def ply(self) -> int:
        """Moves played since this state was created."""
    @property
    def key(self) -> int:
        """The Zobrist key."""
    @property
    def position(self) -> str:
        """The position string."""
    def returns(self) -> list[float]:
        """By player index: 1 a win, -1 a loss, 0 otherwise."""
    def history(self) -> list[str]: ...
    def legal_moves(self) -> list[str]:
        """In notation, in the order of ``legal_actions()``."""
    def legal_actions(self) -> list[int]:
        """In increasing order."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]: ...
    def action_to_move(self, action: int) -> str: ...
    def move_to_action(self, move: str) -> int: ...
    def play(self, move: str) -> None:
        """Raises ``NotationError`` or ``IllegalMoveError``; nothing changes then."""
    def apply_action(self, action: int) -> None:
        """Raises ``IllegalMoveError`` or ``ActionError``; nothing changes then."""
    def undo(self) -> str:
        """Takes back the last move and returns it; raises ``PlyError`` if there is none."""
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: object) -> State: ...
    def fen(self) -> str: ...
    def piece_at(self, cell: str) -> str | None: ...
    def board(self) -> list[list[str | None]]:
        """Rows from the top, each cell a piece code or None."""
    def observation(self) -> npt.NDArray[np.float32]:
        """Of ``Game.observation_shape``."""
    def perft(self, depth: int) -> int:
        """In Rust, with the GIL released."""
    def random_playouts(
        self, games: int, seed: int = 0, max_plies: int = 1000
    ) -> dict[str, int | tuple[int, int]]:
        """``games``, ``plies``, ``wins``, ``draws``, ``capped``, ``stuck``."""
    def random_game(self, seed: int = 0, max_plies: int = 1000) -> list[str]:
        """The moves of one seeded random game chosen in Rust; the state is unchanged."""
    def __eq__(self, other: object) -> bool: ...

class Choice:
    """A move an engine chose."""

    move: str
    action: int
    score: str | None
    win_rate: float | None
    proven: bool | None
    depth: int | None
    nodes: int
    seconds: float
    pv: list[str]

class Engine:
    """``random``, ``alphabeta[:SETTINGS]`` or ``mcts[:SETTINGS]`` for one game."""

    def __init__(self, game: Game, spec: str) -> None: ...
    @property
    def spec(self) -> str: ...
    def new_game(self) -> None: ...
    def choose(self, state: State) -> Choice:
        """Searches with the GIL released; raises ``EngineError`` with no move to search."""
    def analyse(self, state: State) -> tuple[Choice, list[dict[str, object]]]:
        """The choice, and alpha-beta's report of each completed depth."""

class Batch:
    """Many games of one pack, stepped together; ended games start again."""

    def __init__(
        self, game: Game, size: int, start: State | None = None, max_plies: int = 1000
    ) -> None: ...
    def __len__(self) -> int: ...
    def state(self, i: int) -> State: ...
    def observations(self) -> npt.NDArray[np.float32]:
        """(size, planes, rows, cols)."""
    def legal_action_masks(self) -> npt.NDArray[np.bool_]:
        """(size, num_actions)."""
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Rewards (size, 2), terminated (size,) and truncated (size,); ended games start
        again."""
    def play_random(self, steps: int, seed: int = 0) -> dict[str, int | tuple[int, int]]:
        """``moves``, ``finished``, ``wins``, ``draws``, ``capped``, ``stuck``."""
