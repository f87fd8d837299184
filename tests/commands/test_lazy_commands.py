"""The ``pitch`` group imports a command's module only when that command runs
(issue 22, start-up): ``pitch validate ONE_FILE`` loads validate's module and
what it needs, not the twenty other commands, nor numpy (the quick pass's
arrays are for a batch)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pitchcli import cli
from pitchcli.record import yaml_fast

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json, sys
from pitchcli.cli import main
status = None
try:
    main(sys.argv[1:])
except SystemExit as e:
    status = e.code
print(json.dumps([status, sorted(sys.modules)]))
"""


def _run(*args: str, cwd: Path = ROOT) -> tuple[int | None, list[str]]:
    """``pitch ARGS`` run in a child: its exit status and every module it imported."""
    out = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True, cwd=cwd)
    status, modules = json.loads(out.stdout.splitlines()[-1])
    return status, modules


def _loaded(*args: str) -> list[str]:
    return [m for m in _run(*args)[1] if m.startswith(("pitchcli.commands.", "numpy"))]


def test_every_command_is_listed_under_its_own_name() -> None:
    """Each lazy entry is the command of its module, named as the group lists it."""
    assert list(cli.main.commands) == list(cli.COMMANDS)
    for name in cli.COMMANDS:
        assert cli.main.commands[name].name == name
    assert "nonesuch" not in cli.main.commands and cli.main.get_command(None, "nonesuch") is None  # type: ignore[arg-type]


def test_validate_of_one_file_imports_one_command() -> None:
    loaded = _loaded("validate", "samples/auction-full.yaml")
    assert loaded == ["pitchcli.commands.common", "pitchcli.commands.validate"]


def test_a_folder_with_no_configuration_reads_no_toml(tmp_path: Path) -> None:
    """The built-in profiles are read from JSON: tomllib is imported only to read
    a configuration file, and a folder of records with none never needs it."""
    record = tmp_path / "game.yaml"
    record.write_text((ROOT / "samples" / "auction-full.yaml").read_text())
    status, modules = _run("validate", "game.yaml", cwd=tmp_path)
    assert status == 0 and "tomllib" not in modules and "pitchcli.profiles" in modules
    # a configuration file is still read: one with a key pitch doesn't know is refused
    (tmp_path / "pitch.toml").write_text("max-errors = 3\n")
    status, modules = _run("validate", "game.yaml", cwd=tmp_path)
    assert status == 0 and "tomllib" in modules
    (tmp_path / "pitch.toml").write_text("max-error = 3\n")
    assert _run("validate", "game.yaml", cwd=tmp_path)[0] == 2


def test_a_pyproject_of_other_tools_is_not_parsed(tmp_path: Path) -> None:
    """A pyproject.toml whose text can't hold ``[tool.pitch]`` (a project's,
    configuring other tools) is passed over without tomllib; one with it is read."""
    record = tmp_path / "game.yaml"
    record.write_text((ROOT / "samples" / "auction-full.yaml").read_text())
    other = '[project]\nname = "club"\n[project.scripts]\npitch = "club:main"\n[tool.ruff]\nline-length = 99\n'
    (tmp_path / "pyproject.toml").write_text(other)
    status, modules = _run("validate", "game.yaml", cwd=tmp_path)
    assert status == 0 and "tomllib" not in modules
    (tmp_path / "pyproject.toml").write_text(other + "[tool.pitch]\nmax-error = 3\n")
    status, modules = _run("validate", "game.yaml", cwd=tmp_path)
    assert status == 2 and "tomllib" in modules


_WITHOUT = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None  # (an import of it now raises ImportError)
from pitchcli.cli import main
main(sys.argv[2:])
"""


def test_a_json_file_is_validated_without_pathlib(tmp_path: Path) -> None:
    """``pathlib`` (with ``urllib.parse`` and ``ipaddress``, some 4 ms) is not
    among what one JSON file needs: the configuration's discovery and the
    package's data are read through ``os.path``. (An editable install's import
    hook has loaded it already, so the test takes it away. yaml-rs imports it
    for a YAML file.)"""
    import yaml

    record = yaml.safe_load((ROOT / "samples" / "auction-full.yaml").read_text())
    (tmp_path / "game.json").write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-c", _WITHOUT, "pathlib,tomllib", "validate", "game.json"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "1 valid" in out.stdout


def _yaml_loaded(*args: str) -> tuple[int | None, list[str]]:
    """``pitch ARGS``'s exit status and the YAML modules it imported."""
    status, modules = _run(*args)
    return status, [m for m in modules if m.split(".")[0] in ("yaml", "yaml_rs")
                    or m.startswith("pitchcli.record.yaml_c")]


@pytest.mark.parametrize("suffix", ["json", "jsonl"])
def test_json_is_read_without_pyyaml(tmp_path: Path, suffix: str) -> None:
    """A clean JSON record needs no YAML: PyYAML and the compiled YAML parser are
    imported with the first YAML file, or when a JSON diagnostic needs a position."""
    import yaml

    record = yaml.safe_load((ROOT / "samples" / "auction-full.yaml").read_text())
    clean = tmp_path / f"game.{suffix}"
    clean.write_text(json.dumps(record) + "\n")
    assert _yaml_loaded("validate", str(clean)) == (0, [])
    # a diagnostic is placed on its line: the scanner (PyYAML's node types) is loaded then
    record["hands"][0]["dealer"] = "Nobody"
    broken = tmp_path / f"broken.{suffix}"
    broken.write_text(json.dumps(record) + "\n")
    status, loaded = _yaml_loaded("validate", str(broken))
    assert status == 1 and "yaml.nodes" in loaded
    # a YAML file still reads as before
    assert _yaml_loaded("validate", "samples/auction-full.yaml")[0] == 0


@pytest.mark.skipif(not yaml_fast.AVAILABLE, reason="without yaml-rs every YAML document takes PyYAML")
def test_a_clean_yaml_record_is_read_without_pyyaml(tmp_path: Path) -> None:
    """The compiled parser reads a clean YAML record: the locating loader
    (PyYAML, ``yaml_compose``) is imported only for a document it can't vouch
    for, or to place a diagnostic."""
    text = (ROOT / "samples" / "auction-full.yaml").read_text()
    status, loaded = _yaml_loaded("validate", "samples/auction-full.yaml")
    assert status == 0 and "yaml_rs" in loaded and "yaml" not in loaded
    # a suppression comment is read from the node tree: composed by PyYAML
    commented = tmp_path / "commented.yaml"
    commented.write_text(text.replace("hands:", "hands:  # pitch: ignore[C502]", 1))
    status, loaded = _yaml_loaded("validate", str(commented))
    assert "yaml" in loaded and "pitchcli.record.yaml_compose" in loaded
    # a diagnostic of the rules is placed on its line: the tree is composed then
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("dealer: Ann", "dealer: Nobody", 1))
    status, loaded = _yaml_loaded("validate", str(broken))
    assert status == 1 and "yaml.nodes" in loaded


def test_help_still_lists_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "pitchcli", "--help"], capture_output=True, text=True, cwd=ROOT)
    listed = {line.split()[0] for line in out.stdout.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(cli.COMMANDS)


_THREADS = """
import json, os, sys
from pitchcli.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
import numpy  # (loaded by the quick pass of the batch above)
print(json.dumps([os.environ.get("OPENBLAS_NUM_THREADS"), len(os.listdir("/proc/self/task"))]))
"""


def _threads(tmp_path: Path, env_value: str | None) -> list[object]:
    import os

    stream = tmp_path / "games.jsonl"
    subprocess.run([sys.executable, "-m", "pitchcli", "simulate", "--variant", "auction", "--games", "70", "--seed",
                    "3", "--format", "jsonl", "-o", str(stream)], check=True, cwd=ROOT)
    env = {k: v for k, v in os.environ.items() if k != cli.BLAS_THREADS}
    if env_value is not None:
        env[cli.BLAS_THREADS] = env_value
    out = subprocess.run([sys.executable, "-c", _THREADS, "validate", "-q", str(stream)], capture_output=True,
                         text=True, check=True, cwd=ROOT, env=env)
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
def test_the_program_runs_numpy_on_one_thread(tmp_path: Path) -> None:
    """numpy's OpenBLAS would start a spinning thread per core for nothing:
    ``pitch`` asks for one before the quick pass loads numpy, and keeps a
    user's own setting."""
    assert _threads(tmp_path, None) == ["1", 1]
    assert _threads(tmp_path, "2")[0] == "2"


# What a table command's run of one file of plain names needs none of: the
# worker pool's and the cluster's modules (imported with --jobs or --cluster),
# tabulate's own version lookup and wcwidth's tables (render.tabulated).
_NOT_FOR_ONE_FILE = ("multiprocessing", "ssl", "logging", "importlib.metadata", "wcwidth")


@pytest.mark.parametrize("args", [["summarize"], ["ratings"], ["score"], ["find", "--player", "Ann"]])
def test_a_table_of_one_file_imports_neither_pools_nor_wcwidth(args: list[str]) -> None:
    status, modules = _run(*args, "samples/auction-full.yaml")
    assert status == 0
    # (The ratings table's heading says "± (sigma)": a text of more than
    # ASCII, which the real wcwidth measures.)
    wide = ["wcwidth"] if args == ["ratings"] else []
    assert [m for m in _NOT_FOR_ONE_FILE if m in modules] == wide
    assert "tabulate" in modules  # (the table was made)


def test_summarize_with_jobs_still_runs_its_workers(tmp_path: Path) -> None:
    for k in range(3):
        (tmp_path / f"g{k}.yaml").write_text((ROOT / "samples" / "auction-full.yaml").read_text())
    status, modules = _run("summarize", "--jobs", "2", str(tmp_path))
    assert status == 0 and "multiprocessing" in modules


@pytest.mark.parametrize("args", [["report", "-o", "{out}/site"], ["summarize", "-o", "{out}/summary.txt"],
                                  ["validate", "-o", "{out}/verdict.txt"]])
def test_writing_an_output_imports_no_yaml_writer(tmp_path: Path, args: list[str]) -> None:
    """The atomic writing every ``-o`` and ``report`` use is not the YAML
    writer's: PyYAML (read by a record written as YAML) is not imported for an
    HTML site or a text file, nor multiprocessing for a site made in one process."""
    status, modules = _run(*(a.format(out=tmp_path) for a in args), "samples/auction-full.yaml")
    assert status == 0
    assert [m for m in ("yaml", "multiprocessing") if m in modules] == []
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written  # (the output was written)


def test_a_score_sheet_defines_no_event_log() -> None:
    """``score`` reads a game's hands, not its event log: the log's frozen
    records (``api.events``) are defined by ``replay`` and ``Game.events``."""
    assert "pitchcli.engine.events" not in _run("score", "samples/auction-full.yaml")[1]
    assert "pitchcli.engine.events" in _run("replay", "samples/auction-full.yaml")[1]


def test_the_event_types_are_where_they_were() -> None:
    """``api.games`` still hands out every event type and ``HandEvent`` (from
    ``api.events``, when first asked for); any other name is an AttributeError."""
    from pitchcli.api import events, games

    for name in (*games.EVENTS, "HandEvent"):
        assert getattr(games, name) is getattr(events, name)
        assert name in dir(games)
    with pytest.raises(AttributeError):
        games.Nonesuch  # type: ignore[attr-defined]  # noqa: B018
