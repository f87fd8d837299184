"""Write the generated pages of docs/ (rules, codes, profiles) from the package data.

Run after changing pitchcli/data/rules.toml, codes.toml or profiles.toml:
``python tools/gen_docs.py``; tests/test_reference.py fails while a page is stale.
"""

from __future__ import annotations

from pathlib import Path

from pitchcli.views.reference import pages

DOCS = Path(__file__).resolve().parent.parent / "docs"

if __name__ == "__main__":
    for name, text in pages().items():
        (DOCS / name).write_text(text, encoding="utf-8")
        print(f"wrote docs/{name}")
