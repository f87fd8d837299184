"""Which codes are shown (select / extend-select / ignore, as ruff resolves them)
and where the configuration comes from (pitch.toml, pyproject.toml, walking up)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pitchcli.diagnostics import CODES
from pitchcli.pipeline.config import DEFAULTS, ConfigError, Discovery, _folders, _name, load, may_hold_pitch, parse
from pitchcli.pipeline.selection import Layer, SelectorError, enabled, selectors


def test_everything_is_selected_by_default() -> None:
    assert enabled([]) == frozenset(CODES)
    assert enabled([Layer()]) == frozenset(CODES)


def test_a_prefix_selects_its_codes_and_the_more_specific_selector_wins() -> None:
    claims = {c for c in CODES if c.startswith("C5")}
    assert enabled([Layer(select=("C5",))]) == frozenset(claims | {"L101"})  # L101 is always shown
    assert enabled([Layer(select=("C5",), ignore=("C502",))]) == frozenset((claims - {"C502"}) | {"L101"})
    # --ignore C --select C502: the code is more specific than the letter.
    assert "C502" in enabled([Layer(select=("C502",), ignore=("C",))])
    assert "C503" not in enabled([Layer(select=("C502",), ignore=("C",))])
    # Of two as specific, ignore wins.
    assert "C502" not in enabled([Layer(select=("C502",), ignore=("C502",))])


def test_the_command_line_is_a_layer_over_the_configuration() -> None:
    config = Layer(select=("R",), ignore=("R407",))
    # --select starts again: the configuration's ignore no longer applies.
    assert enabled([config, Layer(select=("R407",))]) == frozenset({"R407", "L101"})
    # --extend-select adds to it; --ignore removes from it.
    both = enabled([config, Layer(extend_select=("C502",), ignore=("R401",))])
    assert "C502" in both and "R401" not in both and "R407" not in both and "R402" in both


def test_selectors_accept_commas_case_and_all_and_refuse_unknown_codes() -> None:
    assert selectors(["c5,R407", "ALL"]) == ("C5", "R407", "ALL")
    with pytest.raises(SelectorError, match="unknown code or prefix 'R499'"):
        selectors(["R499"])
    with pytest.raises(SelectorError, match="did you mean 'R410'"):
        selectors(["r470"])


def test_parse_reads_every_key_and_refuses_what_it_does_not_know() -> None:
    c = parse({"select": ["C5"], "extend-select": ["R407"], "ignore": ["C502"], "max-errors": 5, "format": "json",
               "show-source": True, "strict": True, "variant": "auction", "rules": {"target": 21}}, "x")
    assert (c.select, c.extend_select, c.ignore, c.max_errors, c.format, c.show_source, c.strict, c.variant,
            c.rules) == (("C5",), ("R407",), ("C502",), 5, "json", True, True, "auction", {"target": 21})
    for table, words in [
        ({"selct": ["C5"]}, "unknown key 'selct'; did you mean 'select'?"),
        ({"select": "C5"}, "select must be a list of codes"),
        ({"ignore": ["Q1"]}, "unknown code or prefix 'Q1'"),
        ({"max-errors": -1}, "max-errors must be a whole number"),
        ({"max-errors": True}, "max-errors must be a whole number"),
        ({"strict": "yes"}, "strict must be true or false"),
        ({"variant": "setback"}, "unknown profile 'setback'"),
        ({"rules": {"target": 21}}, "rules need a variant"),
        ({"variant": "auction", "rules": {"target": "x"}}, "target must be a whole number"),
        ({"variant": "auction", "rules": {"colour": 1}}, "unknown rule option 'colour'"),
    ]:
        with pytest.raises(ConfigError, match=words.replace("(", r"\(").replace("?", r"\?")):
            parse(table, "x")


def test_the_nearest_configuration_up_from_each_input_is_used(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pitch]\nignore = ["C502"]\n')
    club = tmp_path / "club" / "2026"
    club.mkdir(parents=True)
    (tmp_path / "club" / "pitch.toml").write_text('select = ["R"]\n')
    other = tmp_path / "other"
    other.mkdir()
    d = Discovery()
    assert d.for_input(str(club / "a.yaml")).select == ("R",)  # the nearer file, whole: not merged
    assert d.for_input(str(club / "a.yaml")).ignore == ()
    assert d.for_input(str(other / "b.yaml")).ignore == ("C502",)
    # pitch.toml before pyproject.toml in one folder; .pitch.toml before both.
    (other / "pyproject.toml").write_text('[tool.pitch]\nignore = ["R407"]\n')
    (other / "pitch.toml").write_text('ignore = ["R401"]\n')
    assert Discovery().for_input(str(other / "b.yaml")).ignore == ("R401",)
    (other / ".pitch.toml").write_text('ignore = ["R402"]\n')
    assert Discovery().for_input(str(other / "b.yaml")).ignore == ("R402",)


def test_a_pyproject_without_tool_pitch_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / "pitch.toml").write_text('ignore = ["C502"]\n')
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert Discovery().for_input(str(inner / "a.yaml")).ignore == ("C502",)
    with pytest.raises(ConfigError, match=r"no \[tool.pitch\] table"):
        Discovery(str(inner / "pyproject.toml"))  # named with --config: it must configure pitch


def test_config_file_and_isolated(tmp_path: Path) -> None:
    (tmp_path / "pitch.toml").write_text('ignore = ["C502"]\n')
    named = tmp_path / "ci.toml"
    named.write_text('ignore = ["R407"]\n')
    assert Discovery(str(named)).for_input(str(tmp_path / "a.yaml")).ignore == ("R407",)
    assert Discovery(isolated=True).for_input(str(tmp_path / "a.yaml")) is DEFAULTS


def test_standard_input_uses_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pitch.toml").write_text('ignore = ["C502"]\n')
    monkeypatch.chdir(tmp_path)
    assert Discovery().for_input("-").ignore == ("C502",)
    assert Discovery().for_run().ignore == ("C502",)


def test_bad_files_are_config_errors(tmp_path: Path) -> None:
    p = tmp_path / "pitch.toml"
    p.write_text("select = [\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(p)
    p.write_bytes(b"# " + b"x" * (1024 * 1024 + 10))
    with pytest.raises(ConfigError, match="not a configuration file"):  # bounded: never read whole
        load(p)
    p.write_text('[tool.pitch]\nselect = ["C5"]\n')
    with pytest.raises(ConfigError, match="keys go at the top level"):
        load(p)
    with pytest.raises(ConfigError, match="cannot read"):
        load(tmp_path / "missing.toml", named=True)


def test_messages_name_the_file_relative_to_the_current_folder(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text('[tool.pitch]\nvariant = "auction"\n')
    monkeypatch.chdir(tmp_path)
    assert Discovery().for_input("sub/a.yaml").name == os.path.join("sub", "pyproject.toml") + " [tool.pitch]"


# --- the discovery reads paths as text (no pathlib on one file's path) -----------

_SEGMENT = st.text(st.sampled_from("ab.-_ é"), min_size=1, max_size=4).filter(lambda s: s not in (".", ".."))


@given(st.lists(_SEGMENT, max_size=6), st.booleans())
def test_folders_and_names_read_as_pathlib_reads_them(parts: list[str], trailing: bool) -> None:
    # The folders searched are a Path's (folder, *folder.parents), and a file's
    # name its Path's .name: pathlib was the reference these were written against.
    folder = os.path.abspath(os.sep + os.sep.join(parts))
    assert list(_folders(folder)) == [str(p) for p in (Path(folder), *Path(folder).parents)]
    text = os.sep.join(parts) + (os.sep if trailing else "")
    assert _name(text) == Path(text).name


# --- a pyproject.toml that can't hold [tool.pitch] is passed over unparsed ------------------------

_TOOL = ["tool", '"tool"', "'tool'", '"\\u0074ool"', '"t\\u006Fol"', '"\\U00000074ool"']
_PITCH = ["pitch", '"pitch"', "'pitch'", '"\\u0070itch"', '"pit\\u0063h"']
_SPACE = st.sampled_from(["", " ", "\t", "  "])
_NOISE = st.sampled_from(["", '[project]\nname = "club"\n', "[tool.ruff]\nline-length = 99\n",
                          '[project.scripts]\npitch = "club:main"\n', "# [tool.pitch] below\n"])


@st.composite
def _toml(draw: st.DrawFn) -> str:
    """A TOML text that gives the key path tool -> pitch in one of the ways TOML
    has (each key bare, quoted or escaped; spaced or not), after other tables."""
    t, p = draw(st.sampled_from(_TOOL)), draw(st.sampled_from(_PITCH))
    a, b = draw(_SPACE), draw(_SPACE)
    dot = f"{a}.{b}"
    form = draw(st.sampled_from([
        f"[{a}{t}{dot}{p}{b}]\nx = 1\n", f"[{t}{dot}{p}{dot}rules]\nx = 1\n", f"[{a}{t}{b}]\n{p} = {{}}\n",
        f"[{t}]\n{p}{dot}x = 1\n", f"{t}{dot}{p}{dot}x = 1\n", f"{t}{a}={b}{{{p} = {{}}}}\n", f"[[{t}]]\n{p} = 1\n"]))
    head = draw(_NOISE)
    # (Keys at the top level go before any table: a dotted key after [project] would be project's.)
    return form + head if not form.startswith("[") else head + form


def _tool_pitch_found(text: str, data: dict[str, object]) -> bool:
    """Whether ``data`` (``text`` parsed) has tool -> pitch, and the search says it may."""
    tool = data["tool"][0] if isinstance(data["tool"], list) else data["tool"]
    return "pitch" in tool and may_hold_pitch(text.encode())  # type: ignore[operator]


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(_toml())
def test_a_text_that_holds_tool_pitch_is_always_parsed(text: str) -> None:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:  # (a form that clashes with the other table: [tool] twice)
        assume(False)
    assert _tool_pitch_found(text, data), text


@pytest.mark.parametrize("text", [
    "[tool.pitch]\n", "[ tool . pitch ]\n", "[\"tool\".'pitch']\n", "[tool]\npitch = {}\n", "[ 'tool' ]\npitch.x = 1\n",
    "tool.pitch.select = []\n", "tool = {pitch = {}}\n", '"\\u0074ool".pitch.x = 1\n', '[tool."\\u0070itch"]\n',
    "[tool.pitch.rules]\n", "[[tool]]\npitch = {}\n", '"tool" . "pitch" = {}\n'])
def test_every_spelling_of_tool_pitch_is_parsed(text: str) -> None:
    import tomllib

    assert _tool_pitch_found(text, tomllib.loads(text))


def test_a_pyproject_without_tool_pitch_is_passed_over_even_broken(tmp_path: Path) -> None:
    """What no [tool.pitch] can be in is not read (a project's pyproject.toml
    whose other tables are broken is not pitch's to judge); named with
    ``--config``, a pyproject.toml is parsed, and must have the table."""
    p = tmp_path / "pyproject.toml"
    p.write_text('[project]\nname = "club"\n[project.scripts]\npitch = "club:main"\n[tool.ruff\n')
    assert load(p) is None
    assert Discovery().for_input(str(tmp_path / "a.yaml")) is DEFAULTS
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(p, named=True)
    p.write_text('[tool.pitch]\nselect = [\n')  # one that may hold it: parsed, and its mistake stops the run
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(p)
