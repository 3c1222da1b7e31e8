"""``python -m array_api_promo.audit``: the runner (:mod:`array_api_promo.audit.cli`)."""

import sys

from .cli import main

sys.exit(main())
