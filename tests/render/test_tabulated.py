"""render.tabulated: the program imports tabulate without ``importlib.metadata``
and with a stand-in ``wcwidth`` (start-up), which must be invisible: the same
tables as the plain import, whatever the text (wide, combining, control
characters, escapes), the real ``wcwidth`` for whoever asks after, and the
plain import whenever a stand-in can't be lent. Each case runs in a fresh
interpreter (imports are the process's own)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitchcli.render import tabulated

wcwidth = pytest.importorskip("wcwidth")

# Rows with every kind of width: ASCII, wide (CJK, emoji), combining marks,
# zero-width and control characters, an ANSI colour (tabulate measures it
# without its escapes), tabs and several lines in a cell.
ROWS = [
    ["Ann", "7", "plain"],
    ["李小龍", "12", "wide"],
    ["Zoë", "3", "e + combining diaeresis"],
    ["🂡 ace", "-2", "emoji"],
    ["a\u200bb", "0", "zero width space"],
    ["bell\x07", "1", "a control character"],
    ["\x1b[31mred\x1b[0m", "5", "colour"],
    ["two\nlines", "9", "tab\there"],
]

_PROBE = """
import json, sys
from pitchcli import program
{setup}
from pitchcli.render.tabulated import tabulate
rows = json.loads(sys.argv[1])
tables = [tabulate(rows[:1], ["name", "n", "what"], disable_numparse=True)]
after_ascii = {{m: m in sys.modules for m in ("wcwidth", "importlib.metadata")}}
for fmt in ("simple", "github", "grid"):
    tables.append(tabulate(rows, ["name", "n", "what"], tablefmt=fmt, disable_numparse=True))
# numbers read as numbers (a score sheet's columns), aligned as pitch aligns them
numbers = [[name, int(n), int(n) * 1.5, -int(n)] for name, n, _ in rows]
tables.append(tabulate(numbers, ["name", "n", "x", "neg"], tablefmt="simple",
                       colalign=("left", "right", "right", "right")))
import wcwidth
print(json.dumps({{"tables": tables, "after_ascii": after_ascii,
                   "real_wcwidth": hasattr(wcwidth, "wcwidth") and sys.modules["wcwidth"] is wcwidth
                                   and type(wcwidth.wcswidth).__module__ != "pitchcli.render.tabulated"}}))
"""


def _child(setup: str = "") -> dict[str, object]:
    p = subprocess.run([sys.executable, "-c", _PROBE.format(setup=setup), json.dumps(ROWS)],
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def test_the_program_makes_the_same_tables_without_the_two_imports() -> None:
    plain = _child()  # the library's way
    own = _child("program.claim()")
    assert plain["after_ascii"] == {"wcwidth": True, "importlib.metadata": True}
    # (Fails when a tabulate reads more of either module at its import, the
    # fallback then keeping pitch right but slower; or no longer imports them.)
    assert own["after_ascii"] == {"wcwidth": False, "importlib.metadata": False}
    assert own["tables"] == plain["tables"]
    assert "李小龍" in own["tables"][1]  # type: ignore[index]
    assert own["real_wcwidth"] and plain["real_wcwidth"]


def test_without_wcwidth_installed_tables_are_made_as_tabulate_makes_them() -> None:
    # (sys.modules[name] = None: Python's own way to make an import fail.)
    setup = "sys.modules['wcwidth'] = None"
    code = (f"import json, sys\nfrom pitchcli import program\n{setup}\n{{claim}}\n"
            "from pitchcli.render.tabulated import tabulate\n"
            "print(json.dumps(tabulate(json.loads(sys.argv[1]), ['name', 'n', 'what'], disable_numparse=True)))")
    outs = [subprocess.run([sys.executable, "-c", code.format(claim=claim), json.dumps(ROWS)],
                           capture_output=True, text=True, check=True).stdout for claim in ("", "program.claim()")]
    assert outs[0] == outs[1] and "Ann" in outs[0]


def test_a_wcwidth_that_fails_to_import_later_measures_by_length() -> None:
    # (Installed, so lent a stand-in, but broken when first asked: the table is
    # tabulate's own without wcwidth, each cell measured by its length, not a traceback.)
    code = ("import json, sys\nfrom pitchcli import program\n{claim}\n"
            # (a first table: tabulate imported, with its stand-ins lent in the program)
            "from pitchcli.render.tabulated import tabulate\ntabulate([['Ann']])\n"
            "import tabulate as t\nsys.modules['wcwidth'] = None\n"
            "{plain}"
            "print(json.dumps(tabulate(json.loads(sys.argv[1]), ['name', 'n', 'what'], disable_numparse=True)))")
    own = subprocess.run([sys.executable, "-c", code.format(claim="program.claim()", plain=""), json.dumps(ROWS)],
                         capture_output=True, text=True, check=True).stdout
    by_length = subprocess.run([sys.executable, "-c", code.format(claim="", plain="t.wcwidth = None\n"),
                                json.dumps(ROWS)], capture_output=True, text=True, check=True).stdout
    assert own == by_length and "李小龍" in json.loads(own)


def test_wcwidth_already_imported_means_its_own_module() -> None:
    code = ("import json, sys, wcwidth\nfrom pitchcli import program\nprogram.claim()\n"
            "from pitchcli.render.tabulated import tabulate, _module\n"
            "print(json.dumps([_module().wcwidth is wcwidth, 'importlib.metadata' in sys.modules]))")
    got = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout)
    assert got[0] is True  # the real one, already there; the metadata stand-in still lent
    assert got[1] is False


@given(st.text(max_size=12) | st.text(st.characters(max_codepoint=0x7F), max_size=12))
def test_the_stand_in_measures_as_wcwidth_does(text: str) -> None:
    stand_in = tabulated._wcwidth()
    assert stand_in.wcswidth(text) == wcwidth.wcswidth(text)


def test_the_stand_in_passes_any_other_name_to_wcwidth() -> None:
    stand_in = tabulated._wcwidth()
    assert stand_in.wcwidth("李") == wcwidth.wcwidth("李") == 2
    assert stand_in.wcswidth("abc", 2) == wcwidth.wcswidth("abc", 2)
