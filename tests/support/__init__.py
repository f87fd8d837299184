"""Helpers the tests share: record builders, fuzz strategies, a headless browser."""
