"""The public API's own modules: the typed values a script reads and the
functions that make them (``pitchcli`` re-exports them; import them from there).

This layer sits between ``views`` and ``pipeline``: it reads the pipeline's
checked documents and the engine's results and hands out frozen, typed values
(``Document``, ``Diagnostic``, ``CheckedDocument``, ``Game``, ``Hand``,
``Trick`` ...). The views above build on the same values, so the commands show
what a script can read. Nothing here prints.

- ``kinds``: the enums (severity, record format, family, point kinds, and the
  engine's own: why a trick was won, how a game ended, what a call was);
- ``documents``: ``read`` and ``Document``, ``Diagnostic``;
- ``checking``: ``validate``, ``score`` and ``CheckedDocument``;
- ``games``: ``Game``, ``Hand``, ``Trick`` and the rest of a game's results;
- ``solving``: ``solve`` (double-dummy analysis of a game's hands);
- ``records``: ``dumps``, ``write`` (the canonical form), ``simulate``;
- ``rules``: ``rule_profiles`` and ``profile`` (house rules as overrides).
"""
