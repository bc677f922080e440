"""Random playouts per second through Python: Ply's packs beside OpenSpiel's own C++ games.

For each game, in one run, on one machine:

- ``openspiel``: OpenSpiel's C++ game through ``pyspiel``, one Python call per step
  (``legal_actions``, ``apply_action``), a uniformly random action each step;
- ``ply step``: the Ply pack through ``plygames`` in the same Python loop;
- ``ply batch``: the Ply pack as a ``plygames.Batch`` of 256 games, ``play_random`` (one call,
  the moves chosen in Rust);
- ``ply rust``: ``State.random_playouts`` (whole playouts in Rust), for reference.

Each is run for ``--seconds`` and reported as finished games a second and moves a second; the
ratios are Ply's games a second over OpenSpiel's. The rules are the same games, not the same
code: OpenSpiel's chess and checkers have their own draw rules and its games their own
length caps, so random games differ in length; the moves-a-second columns show that.

    python crates/python/bench/ratio.py [--seconds 2] [--games breakthrough,chess]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import pyspiel

import plygames

ROOT = Path(__file__).resolve().parents[3]
GAMES = {
    "breakthrough": "breakthrough.toml",
    "checkers": "checkers.toml",
    "chess": "chess.toml",
    "othello": "othello.toml",
    "connect_four": "connect_four.toml",
    "hex": "hex.toml",
    "clobber": "clobber.toml",
    "lines_of_action": "lines_of_action.toml",
    "go(board_size=9)": "go9.toml",
    "nine_mens_morris": "nine_mens_morris.toml",
}


def timed(play_one, seconds: float) -> tuple[float, float]:
    """Games and moves a second of ``play_one`` (which returns the moves of one game)."""
    games = moves = 0
    start = time.perf_counter()
    while True:
        moves += play_one()
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, moves / elapsed


def openspiel_step(name: str, seconds: float) -> tuple[float, float]:
    game = pyspiel.load_game(name)
    rng = random.Random(1)

    def one() -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return timed(one, seconds)


def ply_step(game: plygames.Game, seconds: float) -> tuple[float, float]:
    rng = random.Random(1)

    def one() -> int:
        state = game.start()
        n = 0
        while not state.is_terminal and n < 1000:
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return timed(one, seconds)


def ply_batch(game: plygames.Game, seconds: float, size: int = 256) -> tuple[float, float]:
    batch = plygames.Batch(game, size, max_plies=1000)
    finished = moves = 0
    seed = 0
    start = time.perf_counter()
    while True:
        stats = batch.play_random(20, seed=seed)
        seed += 1
        finished += stats["finished"]
        moves += stats["moves"]
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return finished / elapsed, moves / elapsed


def ply_rust(game: plygames.Game, seconds: float) -> tuple[float, float]:
    state = game.start()
    games = moves = 0
    seed = 0
    start = time.perf_counter()
    while True:
        stats = state.random_playouts(50, seed=seed, max_plies=1000)
        seed += 1
        games += stats["games"]
        moves += stats["plies"]
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated")
    args = parser.parse_args()
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in names if g not in GAMES]
    if unknown:
        parser.error(f"unknown games {unknown}; the games are {', '.join(GAMES)}")
    print(f"random playouts a second, {args.seconds:g} s a measurement (games/s, moves/s)\n")
    head = ("game", "openspiel", "ply step", "ply batch", "ply rust", "step", "batch", "rust")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name in names:
        game = plygames.load(ROOT / "rulesets" / GAMES[name])
        os_g, os_m = openspiel_step(name, args.seconds)
        st_g, st_m = ply_step(game, args.seconds)
        ba_g, ba_m = ply_batch(game, args.seconds)
        ru_g, ru_m = ply_rust(game, args.seconds)

        def cell(g: float, m: float) -> str:
            return f"{g:,.0f} ({m / 1000:,.0f} k)"

        print(
            f"| {name} | {cell(os_g, os_m)} | {cell(st_g, st_m)} | {cell(ba_g, ba_m)} | "
            f"{cell(ru_g, ru_m)} | {st_g / os_g:.2f} | {ba_g / os_g:.2f} | {ru_g / os_g:.2f} |",
            flush=True,
        )
    print("\nstep, batch, rust: Ply's games a second over OpenSpiel's (per-step through pyspiel).")


if __name__ == "__main__":
    main()
