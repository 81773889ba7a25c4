"""The named rule sets, shipped as package data (gridsolve.rulesets)."""
