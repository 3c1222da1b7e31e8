import sys

from .cli import main

sys.exit(main(prog="python -m array_api_promo.conformance"))
