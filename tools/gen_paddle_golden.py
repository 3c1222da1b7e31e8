#!/usr/bin/env python
"""Generate ``tests/data/paddle_<version>_promotion.json`` from real PaddlePaddle (CPU).

Run, in an environment with PaddlePaddle's CPU build (``pip install paddlepaddle``)::

    V/bin/python tools/gen_paddle_golden.py

The cases and the table's layout are ``tools/field_golden.py``'s (arithmetic and ``where``
of every operand pair, creation, reductions, integer division by zero); this script says how
Paddle makes them, and records Paddle's default dtype and whether it has ``paddle.result_type``.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import field_golden  # noqa: E402
import golden_dtypes  # noqa: E402

# Paddle has no uint16/uint32/uint64.
DTYPE_NAMES = [d for d in golden_dtypes.WITH_BFLOAT16 if d not in golden_dtypes.UNSIGNED_WIDE]
PY_LITERALS = ["True", "1", "-1", "1000", "2147483648", "1.5", "1e39", "1j"]


def backend() -> field_golden.Backend:
    import paddle

    paddle.set_device("cpu")

    def name_of(d) -> str:
        return str(d).replace("paddle.", "")

    return field_golden.Backend(
        name="paddle",
        version=paddle.__version__,
        dtypes=DTYPE_NAMES,
        literals=PY_LITERALS,
        array_call="to_tensor",
        make=lambda dn, shape: paddle.ones(list(shape), dtype=dn),
        where=paddle.where,
        array=paddle.to_tensor,
        calls={"ones([2])": lambda: paddle.ones([2]), "arange(3)": lambda: paddle.arange(3)},
        reduce=lambda op, x: getattr(paddle, op)(x),
        values=lambda out: (out.astype("float32") if name_of(out.dtype) == "bfloat16" else out).numpy(),
        dtype_name=name_of,
        lists=(*field_golden.LISTS, "[1, 1j]"),
        extra={"default_dtype": str(paddle.get_default_dtype()), "has_result_type": hasattr(paddle, "result_type")},
        division_by_zero=True,
    )


if __name__ == "__main__":
    sys.exit(field_golden.main(backend, os.path.abspath(__file__)))
