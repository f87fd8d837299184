"""Comments are the user's words (issue 11): ``fmt``, ``fmt --in-place`` and
``fmt --fill`` keep every comment — a comment line stays before the key or item
it precedes, an end-of-line comment stays on its line — and the canonical form
stays idempotent. Before, every comment was deleted, and the ``pitch new``
template's own advice (``fmt --fill --in-place``) wiped its explanations.
``PITCH_COMMENT_EXAMPLES`` sets the examples of the property (default 12)."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchcli.cli import main
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, dump

EXAMPLES = int(os.environ.get("PITCH_COMMENT_EXAMPLES", "12"))

MESSY = """\
# yaml-language-server: $schema=pitch-record-1.schema.json
# Thursday's game, typed from the score sheet
variant: auction   # the club's rules
format: pitch-record/1
players: [Ann, Ben, Cal, Dot]   # seats, clockwise
hands:
  # the first hand
  - bids: [pass, pass, 2, 2]    # Dot steals
    dealer: Cal
    tricks:
      - [8c, QC, QS, 3C]
      - [3S, KS, KC, 2C]   # Ben trumps
      # a long one
      - [2S, AC, 7C, 3H]
      - [JD, JH, 4D, 6H]
      - [10S, AS, 9D, 9C]
      - [5H, 8H, KH, 10H]
    # as written on the sheet
    score: {Ann: 0, Ben: 2, Cal: -2, Dot: 0}
# the end
"""


def cli(*args: object) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def _comments(text: str) -> list[str]:
    return [m.group().rstrip() for m in re.finditer(r"(?<![^ \n])#.*", text)]


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines()) if needle in line)


def test_fmt_keeps_every_comment_where_it_belongs(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(MESSY)
    r = cli("fmt", path)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert sorted(_comments(out)) == sorted(_comments(MESSY))
    lines = out.splitlines()
    assert lines[0].startswith("# yaml-language-server:")  # the head stays the head
    assert lines[2] == "format: pitch-record/1"
    assert "variant: auction  # the club's rules" in lines
    assert "    bids: [pass, pass, 2, 2]  # Dot steals" in lines  # moved with its key, on its line
    assert _line_of(out, "# the first hand") + 1 == _line_of(out, "- dealer: Cal")
    assert _line_of(out, "# a long one") + 1 == _line_of(out, "[2S, AC, 7C, 3H]")
    assert _line_of(out, "# as written on the sheet") + 1 == _line_of(out, "score:")
    assert "8C" in out and "8c" not in out  # still the canonical form
    assert yaml.safe_load(out) == canonical(yaml.safe_load(MESSY)) | {"hands": yaml.safe_load(out)["hands"]}
    # idempotent, and --check agrees
    path.write_text(out)
    assert cli("fmt", path).stdout == out
    assert cli("fmt", "--check", path).exit_code == 0


def test_fill_in_place_keeps_comments(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(MESSY)
    assert cli("fmt", "--fill", "--in-place", path).exit_code == 0
    out = path.read_text()
    assert sorted(_comments(out)) == sorted(_comments(MESSY))
    assert "totals:" in out and "trump: C" in out
    assert "      - {lead: Dot, cards: [3S, KS, KC, 2C]}  # Ben trumps" in out.splitlines()
    assert cli("fmt", "--fill", "--check", path).exit_code == 0


def test_the_new_template_survives_fill_in_place(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    assert cli("new", "--variant", "auction", "--players", "Ann,Ben,Cal,Dot", "-o", path,
               "--schema", "pitch-record-1.schema.json").exit_code == 0
    template = path.read_text()
    text = template.replace("bids: [] ", "bids: [pass, 2, pass, pass]").replace(
        "tricks: [] ", "tricks: [[KS, 3S, 10S, AS], [QD, 5D, JS, 9D], [2S, 4H, 6C, 7S], [AH, KH, 9H, 3H], "
                       "[QC, 8C, JC, 10C], [6D, 8D, 4D, 7H]]")
    path.write_text(text)
    r = cli("fmt", "--fill", "--in-place", path)
    assert r.exit_code == 0, r.stderr
    out = path.read_text()
    assert [c for c in _comments(out)] == _comments(template)  # every explanation, in order
    assert out.startswith("# yaml-language-server: $schema=")
    assert cli("validate", "-q", path).exit_code == 0
    assert cli("fmt", "--fill", "--check", path).exit_code == 0


def test_comments_stay_in_their_document(tmp_path: Path) -> None:
    games = [canonical(simulate_game("auction", 4, rng=random.Random(s))) for s in range(3)]
    docs = [f"# game {i}\n" + dump([g], "yaml").replace("variant: auction\n",
                                                        f"variant: auction  # rules of game {i}\n", 1)
            for i, g in enumerate(games)]
    path = tmp_path / "stream.yaml"
    path.write_text("".join("---\n" + d for d in docs))
    out = cli("fmt", path).stdout
    parts = out.split("---\n")[1:]
    assert len(parts) == 3
    for i, part in enumerate(parts):
        assert part.startswith(f"# game {i}\n") and f"variant: auction  # rules of game {i}\n" in part


def test_json_output_says_the_comments_are_not_kept(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(MESSY)
    r = cli("fmt", "--to", "json", path)
    assert r.exit_code == 0
    assert "10 comments not written: JSON has no comments" in r.stderr


# --- property: comments anywhere in a canonical record ----------------------------

# (What YAML allows in a comment: no control, surrogate, line or paragraph
# separator, BOM, NEL, nor the noncharacters U+FFFE and U+FFFF.)
comment_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cc", "Cs", "Zl", "Zp"],
                                     exclude_characters="\ufeff\x85\ufffe\uffff"), max_size=20)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 50), st.data())
def test_fmt_keeps_comments_anywhere_and_is_idempotent(tmp_path_factory, seed: int, data: st.DataObject) -> None:
    rec = canonical(simulate_game(data.draw(st.sampled_from(["auction", "ten-point", "auction-partners"])),
                                  rng=random.Random(seed)))
    lines = dump([rec], "yaml").splitlines()
    out_lines: list[str] = []
    for line in lines:
        if data.draw(st.integers(0, 5)) == 0:  # a comment line before this one
            pad = " " * (len(line) - len(line.lstrip("- ")))
            out_lines.append(f"{pad}# {data.draw(comment_text)}".rstrip())
        if data.draw(st.integers(0, 5)) == 0:  # an end-of-line comment
            line += f"  # {data.draw(comment_text)}".rstrip()
        out_lines.append(line)
    if data.draw(st.booleans()):
        out_lines.append("# " + data.draw(comment_text))
    text = "\n".join(out_lines) + "\n"
    path = tmp_path_factory.mktemp("c") / "game.yaml"
    path.write_text(text, encoding="utf-8")
    for args in (["fmt"], ["fmt", "--fill"]):
        r = cli(*args, path)
        assert r.exit_code == 0, r.stderr
        out = r.stdout
        assert sorted(_comments(out)) == sorted(_comments(text))  # none lost, none made up
        again = path.with_name("again.yaml")
        again.write_text(out, encoding="utf-8")
        assert cli(*args, again).stdout == out  # idempotent
    assert yaml.safe_load(cli("fmt", path).stdout) == rec
