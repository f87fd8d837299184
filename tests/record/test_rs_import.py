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
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitchcli.record import rs

pytest.importorskip("jsonschema_rs")

ROOT = Path(__file__).resolve().parents[2]
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


# --- yaml-rs without pathlib ---------------------------------------------------------------------

# A child without ``site`` (``-S``): a development install's import hook, which
# imports ``pathlib``, is not run, as in a user's install; the package and its
# dependencies are found on PYTHONPATH.
_YAML_REPORT = """
import json, sys
yaml_rs = rs.yaml_rs()
before = "pathlib" in sys.modules
text = "a: 1\\nb: [x, 2]\\n"
data = yaml_rs.loads(text, parse_datetime=False)
import pathlib, tempfile, os
from yaml_rs import _lib
out = os.path.join(tempfile.mkdtemp(), "out.yaml")
print(json.dumps({
    "pathlib_before": before,
    "data": data,
    "real_pathlib": sys.modules["pathlib"] is pathlib and hasattr(pathlib, "PurePosixPath"),
    "is_path": isinstance(pathlib.Path("x"), _lib.Path) and not isinstance("x", _lib.Path),
    "made": str(_lib.Path("a", "b")) == str(pathlib.Path("a", "b")),
    "dumped": _lib.dump({"a": 1}, out) > 0 and "a: 1" in open(out).read(),
}))
"""


def _yaml_child(setup: str) -> dict[str, object]:
    import os
    import sysconfig

    paths = sysconfig.get_paths()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), paths["purelib"], paths["platlib"]])}
    code = f"{IMPORTS}\n{setup}\n{_YAML_REPORT}"
    p = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True, env=env)
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def test_the_program_imports_yaml_rs_without_pathlib() -> None:
    pytest.importorskip("yaml_rs")
    own = _yaml_child("program.claim()")
    plain = _yaml_child("")  # the library's way
    assert own["pathlib_before"] is False and plain["pathlib_before"] is True
    for got in (own, plain):  # the same reading, and yaml-rs's own use of Path still right
        assert got["data"] == {"a": 1, "b": ["x", 2]}
        assert got["real_pathlib"] and got["is_path"] and got["made"] and got["dumped"]


def test_pathlib_already_imported_means_the_plain_import() -> None:
    pytest.importorskip("yaml_rs")
    got = _yaml_child("import pathlib\nprogram.claim()")
    assert got["pathlib_before"] is True and got["data"] == {"a": 1, "b": ["x", 2]}
