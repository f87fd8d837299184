"""Outputs: each result rendered for a reader (text, JSON, CSV, Markdown, CI formats, HTML, SVG)."""
