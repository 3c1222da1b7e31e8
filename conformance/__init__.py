"""``python -m conformance`` from a checkout of this repository.

The harness is ``array_api_promo.conformance`` (installed with the package, under its own
name); this folder holds its committed data (``results/``, ``xfails/``, ``reports/``) and
this entry point, which is not installed.
"""
