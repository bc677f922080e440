"""What the tests share: the repository's packs and its perft data."""

from __future__ import annotations

from pathlib import Path

import pytest

import plygames

ROOT = Path(__file__).resolve().parents[3]
RULESETS = ROOT / "rulesets"
PACKS = sorted(p.name for p in RULESETS.glob("*.toml"))


def pack_path(name: str) -> str:
    """The path of a shipped pack."""
    return str(RULESETS / name)


def load(name: str, **options) -> plygames.Game:
    """A shipped pack, loaded."""
    return plygames.load(pack_path(name), options or None)


def perft_lines() -> list[tuple[str, dict[str, str], str | None, int, int]]:
    """The counts of tests/data: (pack, options, position or None, depth, count)."""
    out = []
    for line in (ROOT / "tests/data/perft.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        pack, options, rest = line.split(None, 2)
        if rest.startswith('"'):
            position, rest = rest[1:].split('"', 1)
        else:
            start, rest = rest.split(None, 1)
            assert start == "start"
            position = None
        depth, count = (int(x) for x in rest.split())
        opts = {} if options == "-" else dict(o.split("=") for o in options.split(","))
        out.append((pack, opts, position, depth, count))
    for pack, data in [
        ("chess.toml", "chess_perft.txt"),
        ("capablanca.toml", "capablanca_perft.txt"),
        ("xiangqi.toml", "xiangqi_perft.txt"),
    ]:
        for line in (ROOT / "tests/data" / data).read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            fen, counts = line.split(";")
            for depth, count in enumerate(counts.split(), start=1):
                if count != "-":
                    out.append((pack, {}, fen.strip(), depth, int(count)))
    return out


@pytest.fixture(scope="session")
def games() -> dict[str, plygames.Game]:
    """Every shipped pack, loaded once."""
    return {name: load(name) for name in PACKS}
