"""The tool documents itself: every rule id and code is documented, the docs are
up to date and self-contained, and `pitch rules`, `pitch explain`, `pitch
profiles NAME` and every command's --help show it."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from dataclasses import fields
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.diagnostics import CODES
from pitchcli.profiles import Profile, builtin_profiles
from pitchcli.views import reference
from pitchcli.views.reference import profile_options

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PACKAGE_DATA = ROOT / "pitchcli" / "data"
RULE_ID = re.compile(r"""["']((?:CARD|AP|TP|TP4|TP5)-[A-Z0-9]+(?:-[0-9]+)?)["']""")


def run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args))


def emitted_rule_ids() -> set[str]:
    """Every rule id written as a string literal in the package: the ids the
    code can put in a diagnostic (the engine's rule book, and ids cited directly)."""
    found: set[str] = set()
    for path in (ROOT / "pitchcli").rglob("*.py"):
        found |= set(RULE_ID.findall(path.read_text("utf-8")))
    return found


def test_every_rule_id_the_code_can_emit_is_documented() -> None:
    emitted = emitted_rule_ids()
    assert len(emitted) > 30  # the scan finds the rule book, not nothing
    missing = sorted(emitted - set(reference.rules()))
    assert not missing, f"rule ids used in pitchcli/ but not in pitchcli/data/rules.toml: {missing}"


def test_every_code_is_documented_and_nothing_else() -> None:
    assert not reference.undocumented_codes(), (
        f"codes of CODES without an entry in pitchcli/data/codes.toml: {reference.undocumented_codes()}")
    assert list(reference.codes()) == list(CODES)
    for c in reference.codes().values():
        assert c.explain and c.example and c.says, c.code
        assert f" {c.code} " in c.says, c.code  # the example shows the diagnostic of this code


def test_decisions_and_options_are_marked() -> None:
    rules = reference.rules()
    for r in rules.values():
        assert r.decision == ("**Decision**" in r.text), r.id
        assert r.option == ("**Option**" in r.text), r.id
    assert rules["AP-WIN-3"].decision and rules["AP-WIN-3"].option
    assert "**Decision**" in (DOCS / "rules.md").read_text("utf-8")


@pytest.mark.parametrize("name", sorted(reference.pages()))
def test_generated_docs_are_up_to_date(name: str) -> None:
    assert (DOCS / name).read_text("utf-8") == reference.pages()[name], (
        f"docs/{name} is stale: run python tools/gen_docs.py")


@pytest.mark.parametrize("name", sorted(reference.data_files()))
def test_generated_data_files_are_up_to_date(name: str) -> None:
    # The built-in profiles are read from profiles.json, made from profiles.toml:
    # an edit of the TOML that was not carried over would change no profile.
    assert (PACKAGE_DATA / name).read_text("utf-8") == reference.data_files()[name], (
        f"pitchcli/data/{name} is stale: run python tools/gen_docs.py")


def test_profiles_json_holds_what_profiles_toml_says() -> None:
    toml = tomllib.loads((PACKAGE_DATA / "profiles.toml").read_text("utf-8"))
    profiles = builtin_profiles()
    assert list(profiles) == list(toml)
    for name, options in toml.items():
        got = profile_options(profiles[name])
        assert {k: got[k] for k in options} == options


def test_rules_md_has_every_rule_and_codes_md_every_code() -> None:
    rules_md = (DOCS / "rules.md").read_text("utf-8")
    codes_md = (DOCS / "codes.md").read_text("utf-8")
    for rule_id in reference.rules():
        assert f"**{rule_id}**" in rules_md
    for code in CODES:
        assert f"### {code}: " in codes_md


def test_profiles_md_shows_every_option_of_every_profile() -> None:
    text = (DOCS / "profiles.md").read_text("utf-8")
    for f in fields(Profile):
        if f.name != "name":
            assert f"| `{f.name}` |" in text
    for name in builtin_profiles():
        assert f"`{name}`" in text


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("page", _markdown_files(), ids=lambda p: p.name)
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    text = page.read_text("utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL or an anchor on the same page
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT.resolve()), f"{page.name}: {target} leaves the repository"
        assert path.exists(), f"{page.name}: {target} does not exist"
    assert "shared/" not in text, f"{page.name} refers to a folder outside the project"


# --- the commands ------------------------------------------------------------


def test_rules_prints_one_rule_or_lists_them() -> None:
    r = run("rules", "ap-play-2")
    assert r.exit_code == 0
    assert r.stdout.startswith("AP-PLAY-2  (Auction Pitch (Setback): Play)")
    assert "the one illegal play is a card of a third suit" in r.stdout
    listed = run("rules").stdout
    assert all(rule_id in listed for rule_id in reference.rules())
    data = json.loads(run("rules", "TP4-5", "--format", "json").stdout)
    assert data[0]["id"] == "TP4-5" and data[0]["decision"] is True
    bad = run("rules", "AP-PLAY-9")
    assert bad.exit_code == 2 and "did you mean AP-PLAY-4" in bad.stderr


def test_explain_prints_a_code_with_an_example() -> None:
    r = run("explain", "R407")
    assert r.exit_code == 0
    assert r.stdout.startswith("R407: illegal play (suit not followed)")
    assert "Example:" in r.stdout and "error: R407 [AP-PLAY-2]" in r.stdout
    assert len(json.loads(run("explain", "--format", "json").stdout)) == len(CODES)
    bad = run("explain", "R47")
    assert bad.exit_code == 2 and "did you mean R407" in bad.stderr


def test_profiles_name_shows_every_option_and_its_value() -> None:
    p = builtin_profiles()["auction"]
    text = run("profiles", "auction").stdout
    for f in fields(Profile):
        if f.name != "name":
            assert re.search(rf"^  {f.name} ", text, re.M), f.name
    assert re.search(r"^  low +captured ", text, re.M) and re.search(r"^  target +7 ", text, re.M)
    data = json.loads(run("profiles", "ten-point-5", "--format", "json").stdout)
    assert data["sides"] == "called" and data["target"] == 42 and data["players"] == [5]
    assert json.loads(run("profiles", "--format", "json").stdout)["auction"] == reference.profile_options(p)
    # the list stays one line per profile
    assert len(run("profiles").stdout.splitlines()) == len(builtin_profiles())


def _commands() -> list[tuple[str, click.Command]]:
    return sorted(main.commands.items())


@pytest.mark.parametrize(("name", "command"), _commands(), ids=[n for n, _ in _commands()])
def test_help_ends_with_real_examples(name: str, command: click.Command) -> None:
    help_text = run(name, "--help").stdout
    tail = help_text.rstrip("\n").split("\n")
    assert "Examples:" in help_text, (
        f"`pitch {name} --help` must end with 2-3 examples: give the command "
        f"epilog=examples('pitch {name} ...', ...) (pitchcli/commands/{name}.py)")
    after = [line.strip() for line in tail[tail.index("  Examples:") + 1:]]
    assert 2 <= len(after) <= 3 and all(line.startswith(f"pitch {name}") for line in after), (
        f"`pitch {name} --help` must end with 2-3 lines `pitch {name} ...` after 'Examples:', not {after}")
    for line in after:
        args = shlex.split(line.split(" < ")[0].split(" > ")[0])[2:]
        try:  # the example parses: its options and choices exist
            command.make_context(name, args, resilient_parsing=False)
        except click.UsageError as e:
            pytest.fail(f"the example `{line}` of `pitch {name} --help` is not a valid command: {e}")



# A line that ends inside a rule id: "(AP-" with "PLAY-2)" on the next line.
CUT_ID = re.compile(r"\b(?:CARD|AP|TP|TP4|TP5)-(?:[A-Z0-9]+-)*$", re.MULTILINE)


def test_wrapping_never_splits_a_rule_id() -> None:
    outputs = [run("explain", c).stdout for c in CODES]
    outputs += [run("rules", r).stdout for r in reference.rules()]
    outputs += [run("profiles", p).stdout for p in builtin_profiles()]
    outputs.append(run("rules").stdout)
    for text in outputs:
        assert not CUT_ID.search(text), text


def test_a_misspelled_profile_gets_did_you_mean() -> None:
    r = run("profiles", "aution")
    assert r.exit_code == 2
    assert "unknown profile 'aution'; did you mean 'auction'?" in r.stderr, r.stderr
    assert "did you mean" not in run("profiles", "xyz").stderr


def test_example_messages_are_what_the_code_says(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every code's example message is what the code prints today: validating
    its sample (samples-invalid/, docs/examples/codes/), or the file made for
    it (a missing file, a 3 GiB sparse file, a FIFO, an unknown profile given
    to the engine; L108's million documents made with a limit of 3, the same
    words from the same code). python tools/gen_docs.py rewrites them."""
    import sys

    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    sys.modules.pop("make_invalid_samples", None)
    from make_invalid_samples import made_says

    monkeypatch.chdir(ROOT)
    text = (ROOT / "pitchcli" / "data" / "codes.toml").read_text(encoding="utf-8")
    made = made_says(tmp_path, full=False)
    assert reference.with_generated_says(text, made) == text, "stale example messages: run python tools/gen_docs.py"
    entries = reference.codes().values()
    assert not [c.code for c in entries if not (c.sample or c.made)], "a code whose example is written by hand"
    assert {c.code for c in entries if c.made} == set(made)
