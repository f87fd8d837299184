"""docs/api/ is generated from the docstrings (tools/gen_api_docs.py) and fresh,
and ``mypy --strict`` passes on a script that uses every public name."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("typed_script.py")


@pytest.mark.skipif(importlib.util.find_spec("pdoc") is None, reason="pdoc is not installed (the test extra)")
def test_api_reference_is_fresh(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "tools" / "gen_api_docs.py"), "--out", str(tmp_path)], check=True,
                   capture_output=True, cwd=ROOT)
    made = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    kept = {p.relative_to(ROOT / "docs" / "api"): p.read_bytes() for p in (ROOT / "docs" / "api").rglob("*")
            if p.is_file()}
    assert made.keys() == kept.keys(), "docs/api/ is stale: run python tools/gen_api_docs.py"
    stale = [str(p) for p in made if made[p] != kept[p]]
    assert not stale, f"docs/api/{stale} stale: run python tools/gen_api_docs.py"


def test_the_reference_documents_every_public_name() -> None:
    import pitchcli

    page = (ROOT / "docs" / "api" / "pitchcli.html").read_text(encoding="utf-8")
    missing = [n for n in pitchcli.__all__ if n != "__version__" and f'id="{n}"' not in page]
    assert not missing, missing


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (the test extra)")
def test_mypy_strict_passes_on_a_script_using_every_public_name() -> None:
    import pitchcli

    used = SCRIPT.read_text(encoding="utf-8")
    assert all(name in used for name in pitchcli.__all__), "the script must use every public name"
    # --follow-imports=silent: the script and the API's own modules are checked
    # strictly; the package's internals they rest on are read for their types.
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                             "--no-incremental", str(SCRIPT), "pitchcli/__init__.py", "pitchcli/api"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_typed_script_runs() -> None:
    result = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
