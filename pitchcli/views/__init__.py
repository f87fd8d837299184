"""Views: what a command shows, as models read from the engine's results (no printing)."""
