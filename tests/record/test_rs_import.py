"""record.rs: the program imports jsonschema_rs with a stand-in ``email.utils``
(start-up), which must be invisible: the same module, the same build date,
the real ``email.utils`` for whoever imports it after, and the plain import
whenever the stand-in does not do. Each case runs in a fresh interpreter
(imports are the process's own)."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitchcli.record import rs

pytest.importorskip("jsonschema_rs")

IMPORTS = "from pitchcli import program\nfrom pitchcli.record import rs"
REPORT = """
import json, sys
import jsonschema_rs.jsonschema_rs as m
v = jsonschema_rs_module.Draft202012Validator({"type": "integer"})
print(json.dumps({
    "email_utils": "email.utils" in sys.modules,
    "built": str(m.__build__["info-time"]),
    "works": [v.is_valid(3), v.is_valid("3")],
}))
"""


def _child(setup: str) -> dict[str, object]:
    code = (f"{IMPORTS}\n{setup}\n"
            "jsonschema_rs_module = rs.jsonschema_rs()\n" + REPORT)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def test_the_program_imports_it_without_email_utils() -> None:
    # (Fails when a jsonschema_rs reads more of email.utils than the stand-in
    # has, the fallback then keeping pitch right but slower; or when it no
    # longer imports email.utils at all, and the stand-in can go.)
    plain = _child("")  # the library's way
    own = _child("program.claim()")
    assert plain["email_utils"] is True
    assert own["email_utils"] is False
    assert own["built"] == plain["built"]  # the same build date, read by the stand-in
    assert own["works"] == plain["works"] == [True, False]


def test_email_utils_after_it_is_the_real_one() -> None:
    code = (f"{IMPORTS}\nprogram.claim()\nassert rs.jsonschema_rs() is not None\n"
            "import email.utils, sys\n"
            "print(email.utils.formataddr(('A', 'a@b.c')), sys.modules['email'].utils is email.utils)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.split() == ["A", "<a@b.c>", "True"]


def test_a_stand_in_that_does_not_do_falls_back_to_the_plain_import() -> None:
    # (As if a later jsonschema_rs gave a date of another form, or read more of email.utils.)
    refused = _child("program.claim()\n"
                     "def no(text):\n    raise ValueError(text)\n"
                     "rs.parsedate_to_datetime = no")
    assert refused["email_utils"] is True  # the plain import
    assert refused["works"] == [True, False]


def test_email_utils_already_imported_means_the_plain_import() -> None:
    got = _child("import email.utils\nprogram.claim()")
    assert got["email_utils"] is True
    assert got["works"] == [True, False]


@given(st.datetimes(min_value=datetime.datetime(1900, 1, 1), max_value=datetime.datetime(9999, 12, 31),
                    timezones=st.sampled_from([datetime.UTC,
                                               datetime.timezone(datetime.timedelta(hours=-5, minutes=-30)),
                                               datetime.timezone(datetime.timedelta(hours=13, minutes=45))])))
def test_the_stand_in_reads_a_date_as_email_utils_does(when: datetime.datetime) -> None:
    import email.utils

    text = email.utils.format_datetime(when.replace(microsecond=0))
    assert rs.parsedate_to_datetime(text) == email.utils.parsedate_to_datetime(text)
    assert rs.parsedate_to_datetime(text).utcoffset() == email.utils.parsedate_to_datetime(text).utcoffset()


@pytest.mark.parametrize("text", ["", "yesterday", "Thu, 12 Nov 2026 07:50:16", "Thu, 12 Foo 2026 07:50:16 +0000",
                                  "Thu, 12 Nov 2026 07:50 +0000", "Thu, 12 Nov 2026 07:50:16 0000"])
def test_the_stand_in_refuses_any_other_form(text: str) -> None:
    with pytest.raises(ValueError, match="not a date of the form"):
        rs.parsedate_to_datetime(text)


def test_not_installed_is_none_and_leaves_no_stand_in() -> None:
    # (sys.modules[name] = None: Python's own way to make an import fail.)
    code = (f"{IMPORTS}\nimport sys\nsys.modules['jsonschema_rs'] = None\nprogram.claim()\n"
            "print(rs.jsonschema_rs(), 'email.utils' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.split() == ["None", "False"]
