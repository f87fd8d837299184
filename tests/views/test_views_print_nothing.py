"""Views are models only: no module under ``pitchcli/views`` prints. Output is
the renderers' (``pitchcli/render``), which write to the stream they are given.
Checked on the source with ``ast``: no ``print(...)``, no ``sys.stdout`` or
``sys.stderr``, no ``click.echo`` (nor ``click`` at all)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pitchcli

PACKAGE = Path(pitchcli.__file__).parent
VIEWS = sorted((PACKAGE / "views").glob("*.py"))


def printing(source: str) -> list[str]:
    """Where ``source`` prints, or could."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            out.append(f"line {node.lineno}: print(...)")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                (node.value.id == "sys" and node.attr in ("stdout", "stderr", "__stdout__", "__stderr__"))
                or (node.value.id == "click" and node.attr in ("echo", "secho"))):
            out.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and (node.module == "click" or (
                node.module == "sys" and any(a.name in ("stdout", "stderr") for a in node.names))):
            out.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import) and any(a.name == "click" for a in node.names):
            out.append(f"line {node.lineno}: import click")
    return out


def test_there_are_views() -> None:
    assert len(VIEWS) > 8


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.name)
def test_no_view_prints(path: Path) -> None:
    assert printing(path.read_text(encoding="utf-8")) == []


def test_the_check_catches_printing() -> None:
    found = printing("import sys, click\nfrom click import echo\nprint(1)\nsys.stdout.write('x')\n"
                     "click.echo('y')\nsys.stderr.flush()\n")
    assert len(found) == 6
    assert printing("def f(out):\n    out.write('fine: the stream it is given')\n") == []
