"""The hand-written clingo encodings, shipped as package data (gridsolve.encodings)."""
