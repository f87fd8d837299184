"""Records: bytes -> documents with source positions (``load``), the JSON Schema
(``schema``), and canonical writing (``write``). Nothing here knows the rules."""
