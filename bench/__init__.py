"""gridsolve's benchmarks: one module a benchmark (registered by its ``CASE``, bench/cases.py), run
by one runner (``python -m bench NAME [options]``, ``python -m bench --list``), their results
rendered by bench/results.py into the RESULTS-*.md files beside them (bench/README.md)."""
