"""The ``pitch`` group imports a command's module only when that command runs
(issue 22, start-up): ``pitch validate ONE_FILE`` loads validate's module and
what it needs, not the twenty other commands, nor numpy (the quick pass's
arrays are for a batch)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pitchcli import cli

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json, sys
from pitchcli.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("pitchcli.commands.", "numpy")))))
"""


def _loaded(*args: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.splitlines()[-1])


def test_every_command_is_listed_under_its_own_name() -> None:
    """Each lazy entry is the command of its module, named as the group lists it."""
    assert list(cli.main.commands) == list(cli.COMMANDS)
    for name in cli.COMMANDS:
        assert cli.main.commands[name].name == name
    assert "nonesuch" not in cli.main.commands and cli.main.get_command(None, "nonesuch") is None  # type: ignore[arg-type]


def test_validate_of_one_file_imports_one_command() -> None:
    loaded = _loaded("validate", "samples/auction-full.yaml")
    assert loaded == ["pitchcli.commands.common", "pitchcli.commands.validate"]


def test_help_still_lists_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "pitchcli", "--help"], capture_output=True, text=True, cwd=ROOT)
    listed = {line.split()[0] for line in out.stdout.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(cli.COMMANDS)
