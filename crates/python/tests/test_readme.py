"""The README's ten-line example (an OpenSpiel MCTS bot against a Ply engine) runs, as
written, and plays a whole game."""

from __future__ import annotations

import os
import re

import pytest
from conftest import ROOT

pytest.importorskip("pyspiel")


def readme_example() -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(r"<!-- python-example -->\n```python\n(.*?)```", text, re.S)
    assert match, "the README has its Python example after <!-- python-example -->"
    return match.group(1)


def test_the_readme_example_plays_a_game(capsys):
    code = readme_example()
    assert len(code.strip().splitlines()) <= 12
    namespace: dict = {}
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(here)
    state = namespace["state"]
    assert state.is_terminal()
    assert sum(state.returns()) == 0
    assert len(state.history()) >= 7  # both sides moved: a win takes at least seven plies
    assert "MCTS (first):" in capsys.readouterr().out


def test_the_readme_tour_runs(capsys):
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    tour = next(b for b in blocks if b.startswith("import plygames\n"))
    namespace: dict = {}
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(tour, "README.md", "exec"), namespace)
    finally:
        os.chdir(here)
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "only-swimmers-in-water"
    assert namespace["obs"].shape == namespace["game"].observation_shape
    assert len(namespace["batch"]) == 256
