import sys

from array_api_promo.conformance.cli import main

sys.exit(main(prog="python -m conformance"))
