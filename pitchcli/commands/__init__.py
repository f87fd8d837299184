"""The commands: one module per `pitch` subcommand, options -> a driver call -> an exit status."""
