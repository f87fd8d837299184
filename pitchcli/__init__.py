"""pitchcli: the toolkit and record format for the card game Pitch.

Layers, data flowing one way: ``record`` (bytes -> documents with positions,
schema) -> ``engine`` (rules, no I/O) -> ``analysis`` (a record replayed in the
engine: diagnostics and results) -> ``report`` / ``cli``.
"""

__version__ = "0.1.0"
