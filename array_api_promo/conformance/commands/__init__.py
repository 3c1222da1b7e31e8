"""The conformance command's subcommands, one module each: ``run`` (our own results and
DEVIATIONS.md), ``library`` (any array library's report), ``storage`` (the namespace over another
storage), ``render`` (DEVIATIONS.md or the reports again from stored results) and ``diff`` (two
reports or results compared). Each has ``HELP`` (its line in ``--help``), ``DESCRIPTION``,
``add_arguments(parser)`` and ``main(args, console, cloner) -> exit code``."""
