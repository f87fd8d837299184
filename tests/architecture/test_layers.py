"""The house's layout holds: the layers import only downward (import-linter's
contract in pyproject.toml), and no module takes another module's private names."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pitchcli

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(pitchcli.__file__).parent


def test_the_layers_contract_is_kept() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(exe).exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    r = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout


def private_imports(path: Path) -> list[str]:
    """``from pitchcli.x import _name`` in ``path``: a private name taken from another module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pitchcli"):
            found += [f"line {node.lineno}: {node.module}.{a.name}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
    return found


@pytest.mark.parametrize("path", sorted([*PACKAGE.rglob("*.py"), *(ROOT / "benchmarks").glob("*.py"),
                                         *(ROOT / "tools").glob("*.py")]),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_private_name(path: Path) -> None:
    assert private_imports(path) == []


def test_the_private_import_check_sees_one(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from pitchcli.record.load import _secret\n")
    assert private_imports(bad) == ["line 1: pitchcli.record.load._secret"]
