"""Write the generated pages of docs/ (rules, codes, profiles) from the package data,
pitchcli/data/profiles.json (what the built-in profiles are read from) from
profiles.toml, and the example messages of pitchcli/data/codes.toml from the code that writes them.

Run from the repository's root after changing pitchcli/data/rules.toml, codes.toml or
profiles.toml, or a message: ``python tools/gen_docs.py``; tests/views/test_reference.py
fails while a page, profiles.json or an example message is stale. Every code's example message
is generated: a code whose entry names a ``sample`` (a file of samples-invalid/, or
docs/examples/codes/CODE.yaml, made by tools/make_invalid_samples.py) gets as
``says`` what ``pitch validate`` says of that file (and, for docs/examples/codes/, as
``example`` the line it points at); one whose entry says ``made`` gets what the
code says of the file made for it in a temporary folder (a missing file, a 3 GiB
sparse file, a FIFO, a million documents: ``make_invalid_samples.made_says``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_invalid_samples import made_says

from pitchcli.views import reference

DOCS = Path(__file__).resolve().parent.parent / "docs"
DATA = Path(__file__).resolve().parent.parent / "pitchcli" / "data"
CODES_TOML = DATA / "codes.toml"

if __name__ == "__main__":
    text = CODES_TOML.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        made = made_says(Path(folder))
    fresh = reference.with_generated_says(text, made)
    if fresh != text:
        CODES_TOML.write_text(fresh, encoding="utf-8")
        reference.codes.cache_clear()
        print("wrote pitchcli/data/codes.toml")
    for name, text in reference.data_files().items():
        (DATA / name).write_text(text, encoding="utf-8")
        print(f"wrote pitchcli/data/{name}")
    for name, text in reference.pages().items():
        (DOCS / name).write_text(text, encoding="utf-8")
        print(f"wrote docs/{name}")
