"""A pytest plugin for the NEP 50 measurement: every warning pytest records, one JSON line each.

    WARNINGS_OUT=file.jsonl python -m pytest -p warnings_recorder ...

A line: file, line, category, message (the first 200 characters).  Used with NumPy 1.26.4's
``NPY_PROMOTION_STATE=weak_and_warn`` and with the warning mode on NumPy 2 alike.
"""

import json
import os
import warnings


def pytest_configure(config):
    # every occurrence, not once per location: the measurement counts lines, and each test resets the registry
    warnings.simplefilter("always")


def pytest_warning_recorded(warning_message, when, nodeid, location):
    path = os.environ.get("WARNINGS_OUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        f.write(
            json.dumps(
                {
                    "file": warning_message.filename,
                    "line": warning_message.lineno,
                    "category": warning_message.category.__name__,
                    "message": str(warning_message.message)[:200],
                    "test": nodeid,
                }
            )
            + "\n"
        )
