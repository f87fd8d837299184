"""Write the generated pages of docs/ (rules, codes, profiles) from the package data,
and the example messages of pitchcli/data/codes.toml from the code that writes them.

Run from the repository's root after changing pitchcli/data/rules.toml, codes.toml or
profiles.toml, or a message: ``python tools/gen_docs.py``; tests/views/test_reference.py
fails while a page or an example message is stale. A code whose entry names a
``sample`` (a file of samples-invalid/) gets as ``says`` what ``pitch validate`` says
of that file; the others' messages are still written by hand.
"""

from __future__ import annotations

from pathlib import Path

from pitchcli.views import reference

DOCS = Path(__file__).resolve().parent.parent / "docs"

CODES_TOML = Path(__file__).resolve().parent.parent / "pitchcli" / "data" / "codes.toml"

if __name__ == "__main__":
    text = CODES_TOML.read_text(encoding="utf-8")
    fresh = reference.with_generated_says(text)
    if fresh != text:
        CODES_TOML.write_text(fresh, encoding="utf-8")
        reference.codes.cache_clear()
        print("wrote pitchcli/data/codes.toml")
    for name, text in reference.pages().items():
        (DOCS / name).write_text(text, encoding="utf-8")
        print(f"wrote docs/{name}")
