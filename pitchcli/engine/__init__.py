"""The rules engine: profiles -> a state machine per hand -> a game; and a
quick pass (``quick``) that decides many clean games at once.

No I/O here: no files, no YAML, no Click. Problems are returned as
``Violation`` objects naming the rule of RULES.md they break.
"""
