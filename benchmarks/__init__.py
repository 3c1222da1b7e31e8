"""Benchmarks: ``python -m benchmarks`` (see benchmarks/run.py)."""
