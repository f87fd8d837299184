"""Write the API reference, docs/api/, from the docstrings of the public API
(``import pitchcli``'s names) with pdoc.

Run after changing a public name or its docstring: ``python tools/gen_api_docs.py``
(``--out DIR`` writes elsewhere); tests/api/test_api_docs.py regenerates it into a
temporary folder and fails while docs/api/ is stale. The pages depend on pdoc's
version, so the ``test`` extra pins it (pyproject.toml).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pdoc
import pdoc.render

DOCS = Path(__file__).resolve().parent.parent / "docs" / "api"


def generate(out: Path) -> list[Path]:
    """Write the reference into ``out``; the files written."""
    # No source listings (they would make every code change a docs change) and
    # no search index (a large script, not needed for one page of names).
    pdoc.render.configure(show_source=False, search=False, docformat="markdown")
    out.mkdir(parents=True, exist_ok=True)
    pdoc.pdoc("pitchcli", output_directory=out)
    return sorted(p for p in out.rglob("*") if p.is_file())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS)
    for path in generate(parser.parse_args().out):
        print(f"wrote {path}")
