"""Lay out the fake suite's spec stubs where the harness reads them.

The harness reads stubs from ``<suite>/array-api/src/array_api_stubs/_<version>/``.
The fixture's stand-in (written for these tests, no spec text) is kept in
``tests/fixtures/fake_spec_stubs/`` so that no file of the repository sits under
an ``array_api_stubs`` path; it is copied into place (git-ignored) at import.
"""

import shutil
from pathlib import Path

_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
_TARGET = _FIXTURES / "fake_suite" / "array-api" / "src" / "array_api_stubs" / "_2025_12"
_TARGET.mkdir(parents=True, exist_ok=True)
for _stub in (_FIXTURES / "fake_spec_stubs").glob("*.py"):
    shutil.copyfile(_stub, _TARGET / _stub.name)
