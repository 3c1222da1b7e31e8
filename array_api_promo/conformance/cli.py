"""The conformance command: ``python -m conformance [run|library|storage|render|diff] ...``.

Parses the command line (one parser per subcommand, each with the flags that apply to it, so
argparse refuses the rest), maps the older one-level spellings onto the subcommands (``--library
M`` is ``library M``, ``--storage dask`` is ``storage dask``, ``--render-only`` is ``render
deviations``, ``--render-reports`` is ``render reports``; anything else is ``run``), and hands the
parsed arguments to the subcommand's module (``commands/``). Its exit codes: 0 done, 1 defects
under ``--strict``, 2 a usage error found before anything ran, 3 a run that did not give a whole
result, 130 interrupted (nothing written).
"""

from __future__ import annotations

import argparse
import sys

from . import suite as suite_mod
from .commands import diff, library, render, run, storage
from .plan import DEFAULT_POLICIES, IncompleteRun, UsageError

__all__ = ["main", "parse_args", "DEFAULT_POLICIES", "EXIT_INCOMPLETE", "EXIT_INTERRUPTED"]

#: Exit code of a run that could not do its whole job (a usage error is 2, --strict's defects 1).
EXIT_INCOMPLETE = 3
#: Exit code of a job stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
EXIT_INTERRUPTED = 130

SUBCOMMANDS = {
    "run": run,
    "library": library,
    "storage": storage,
    "render": render,
    "diff": diff,
}


class Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (``prog: error: ...``, ``prog`` as the user typed the command,
    then the help to see: the subcommand's) and exit code 2."""

    top_prog: str | None = None

    def error(self, message: str):
        self.exit(2, f"{self.top_prog or self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(prog: str) -> Parser:
    p = Parser(
        prog=prog,
        description="Run the upstream array-api-tests suite against array_api_promo (per promotion policy and "
        "API version), any array library or the namespace over another storage, and write its results and "
        "reports. Without a subcommand: run.",
    )
    sub = p.add_subparsers(dest="command", title="subcommands", metavar="{" + ",".join(SUBCOMMANDS) + "}")
    for name, module in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=module.HELP, description=module.DESCRIPTION)
        sp.set_defaults(job=module.main, settle=getattr(module, "settle", None))
        module.add_arguments(sp)
        _top(sp, prog)
    return p


def _top(parser: argparse.ArgumentParser, prog: str) -> None:
    """``parser`` and the parsers under it say ``prog`` in their errors."""
    parser.top_prog = prog  # type: ignore[attr-defined]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _top(child, prog)


def legacy_argv(argv: list) -> list:
    """The one-level spellings of before the subcommands, as subcommands (``--library M`` as
    ``library M``, ``--storage dask`` as ``storage dask``, ``--render-only`` as ``render deviations``,
    ``--render-reports`` as ``render reports``); without a subcommand, ``run``."""
    if argv and argv[0] == "render" and (len(argv) == 1 or argv[1] not in ("deviations", "reports", "-h", "--help")):
        return ["render", "deviations", *argv[1:]]
    if argv and (argv[0] in SUBCOMMANDS or argv[0] in ("-h", "--help")):
        return argv
    argv = list(argv)
    for flag, head in (("--render-only", ["render", "deviations"]), ("--render-reports", ["render", "reports"])):
        if flag in argv:
            argv.remove(flag)
            return head + argv
    if any(a == "--library" or a.startswith("--library=") for a in argv):
        return ["library", *argv]
    storage = None
    rest: list = []
    it = iter(argv)
    for a in it:
        if a == "--storage":
            storage = next(it, "")
        elif a.startswith("--storage="):
            storage = a.partition("=")[2]
        else:
            rest.append(a)
    if storage is not None and storage != "numpy":
        return ["storage", storage, *rest]
    return ["run", *(rest if storage == "numpy" else argv)]


def parse_args(argv=None, prog: str = suite_mod.PROG) -> argparse.Namespace:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(prog)
    args = parser.parse_args(legacy_argv(argv))
    args.prog = prog
    if args.settle is not None:  # the defaults of the options left out, and what options say together
        try:
            args.settle(args)
        except UsageError as exc:
            parser.exit(2, f"{prog}: error: {exc} (see {prog} {args.command} --help)\n")
    return args


def _console():
    from rich.console import Console

    return Console(soft_wrap=True)  # stdout: a pipe or file gets the progress lines and the summary too


def main(argv=None, *, cloner=suite_mod.git_clone, prog: str | None = None) -> int:
    """The command line; ``prog`` is how the user ran it (each ``__main__`` passes its own)."""
    prog = prog or suite_mod.PROG
    args = parse_args(argv, prog)
    try:
        return args.job(args, _console(), cloner)
    except (UsageError, suite_mod.SuiteNotFound) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except IncompleteRun as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_INCOMPLETE
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
