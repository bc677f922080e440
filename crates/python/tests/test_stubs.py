"""The type stubs describe the module: every name and method they declare exists, and every
public name of the module is declared."""

from __future__ import annotations

import ast
from pathlib import Path

import plygames
from plygames import _core

STUB = Path(__file__).resolve().parents[1] / "python/plygames/_core.pyi"


def declared() -> dict[str, set[str]]:
    tree = ast.parse(STUB.read_text())
    out: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
            out[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = set()
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = set()
    return out


EXCEPTION_ATTRIBUTES = {"diagnostics", "file", "line", "column", "message", "move", "rule", "reason"}


def test_every_declared_name_exists():
    for name, members in declared().items():
        if name == "OptionValue":
            continue
        assert hasattr(_core, name), name
        obj = getattr(_core, name)
        for member in members - EXCEPTION_ATTRIBUTES:
            assert hasattr(obj, member), f"{name}.{member}"


def test_every_public_name_is_declared():
    names = set(declared())
    public = {n for n in dir(_core) if not n.startswith("_")}
    assert public <= names, public - names
    assert set(plygames.__all__) <= names
