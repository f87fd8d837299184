"""The rules engine: profiles -> a state machine per hand -> a game.

No I/O here: no files, no YAML, no Click. Problems are returned as
``Violation`` objects naming the rule of RULES.md they break.
"""
