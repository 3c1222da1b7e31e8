"""The options the subcommands share, and the types that check their values as they are parsed
(a bad value: argparse's one-line error, exit code 2)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from .. import API_VERSIONS, CACHE_DIR, suite as suite_mod

#: Seeds are non-negative and below 2**32 (Hypothesis hashes larger ones); a range of more than
#: MAX_DRAWS seeds is a typo, not a plan (each seed is one run of the whole suite).
MAX_SEED = 2**32 - 1
MAX_DRAWS = 1000


def seeds_arg(text: str) -> list:
    """``--seed 5`` or ``--seed 0-47`` (both ends included), each seed in 0..MAX_SEED."""
    first, dash, last = text.strip().partition("-")
    try:
        lo, hi = (int(first), int(last)) if dash else (int(text), int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a seed is a non-negative integer or a range A-B (e.g. 0-3), got {text!r}"
        ) from None
    if lo < 0 or hi > MAX_SEED:
        raise argparse.ArgumentTypeError(f"seeds go from 0 to {MAX_SEED}, got {text!r}")
    if hi < lo:
        raise argparse.ArgumentTypeError(f"the range {text!r} is empty (give A-B with A <= B)")
    if hi - lo >= MAX_DRAWS:
        raise argparse.ArgumentTypeError(f"the range {text!r} has {hi - lo + 1} seeds, at most {MAX_DRAWS} a range")
    return list(range(lo, hi + 1))


def one_seed_arg(text: str) -> list:
    """``run``'s ``--seed``: one seed (our own results are one draw)."""
    seeds = seeds_arg(text)
    if len(seeds) > 1:
        raise argparse.ArgumentTypeError(
            f"our own results use one seed, got {text!r} (several seeds are for the library and storage subcommands)"
        )
    return seeds


def count_arg(what: str, minimum: int):
    """An argparse type: an integer of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what} is at least {minimum}, got {value}")
        return value

    return parse


def seconds_arg(zero_allowed: bool):
    """An argparse type: a number of seconds, positive (or 0 when ``zero_allowed``: none)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of seconds, got {text!r}") from None
        if not (value > 0 or (zero_allowed and value == 0)) or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(
                f"a number of seconds {'of 0 or more' if zero_allowed else 'above 0'}, got {text!r}"
            )
        return value

    return parse


def add_suite_options(p: argparse.ArgumentParser, *, max_examples_default: str) -> None:
    """The options of every subcommand that runs the suite."""
    p.add_argument(
        "--suite",
        metavar="PATH",
        help=f"array-api-tests checkout (default: ${suite_mod.ENV_SUITE_DIR}, else a clone "
        "in conformance/.cache/array-api-tests)",
    )
    p.add_argument("--no-clone", action="store_true", help="never clone the suite (no network use)")
    p.add_argument(
        "--api-version",
        action="append",
        metavar="YYYY.MM",
        help=f"API version (repeatable; known: {', '.join(API_VERSIONS)})",
    )
    p.add_argument(
        "--max-examples",
        type=count_arg("--max-examples", 1),
        default=None,
        help=f"Hypothesis max examples per test (default {max_examples_default})",
    )
    p.add_argument(
        "--workers",
        type=count_arg("--workers", 1),
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes the suite may use in all (default: the CPU count, here %(default)s). Runs go side by "
        "side, one process each, N at a time; fewer runs than N share the N as pytest-xdist workers. "
        "1: one run at a time, in one process (no xdist)",
    )
    p.add_argument(
        "--pytest-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument passed to pytest (repeatable), e.g. --pytest-arg=-k --pytest-arg=add",
    )
    p.add_argument(
        "--work-dir",
        type=Path,
        default=CACHE_DIR / "runs",
        help=f"raw reports and logs (default {CACHE_DIR / 'runs'})",
    )
    p.add_argument("--no-progress", action="store_true", help="no live progress display")
    p.add_argument(
        "--no-shrink",
        action="store_true",
        help="skip Hypothesis' shrink phase (much faster when many tests fail; failing examples are then not minimal)",
    )
    p.add_argument("--timeout", type=seconds_arg(False), default=None, help="seconds allowed per run")
    p.add_argument(
        "--no-speed-plugin",
        action="store_true",
        help="run the suite without the speed plugin (the same draws and failure texts, slower; the results record it)",
    )
    p.add_argument(
        "--write-xfails",
        type=Path,
        metavar="PATH",
        help="also write an annotated xfails file (the suite's --xfails-file format): grouped by test module "
        "and failure kind, each test with why it fails and a seed it failed under, the tests failing on some "
        "draws only marked; a folder of <name>.txt when the job makes several results",
    )
