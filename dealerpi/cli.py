"""The ``dealerpi`` command: one subcommand per job, each implemented by the module that owns it.

Each entry maps a subcommand to ``module:function``; the function takes the remaining arguments and returns
the exit status. Modules are imported only when their subcommand runs, so ``dealerpi replay`` never loads
the hardware libraries.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("dealerpi.history.replay_cli:main", "replay PHH hand histories or a table journal"),
    "rankings": ("dealerpi.evaluation.rankings_cli:main", "print a game's hand-ranking table"),
    "equity": ("dealerpi.equity.cli:main", "exact equities of hands in any game (--game, --board, --dead)"),
    "run": ("dealerpi.cli:run_table", "run the table daemon (--config FILE, --fake)"),
    "check-config": ("dealerpi.config:main", "validate a table config file"),
    "doctor": ("dealerpi.doctor.main:main", "check this machine for the table: versions, chips, I2C, paths"),
    "enroll": ("dealerpi.shoe.enroll:main", "map a deck's RFID tags to cards"),
    "sim": ("dealerpi.sim.server:main", "the table simulator in a browser"),
    "console": ("dealerpi.console.main:main", "the host console: the table's pages (--config FILE)"),
    "room": ("dealerpi.room.cli:main", "the card room service (--config room.toml); broker-files; desk"),
    "deal": ("dealerpi.deal_cli:main", "ICM and chip-chop deal proposals for a final table"),
    "broadcast": ("dealerpi.broadcast.server:main", "the streamed table: venue and delayed feeds (--config FILE)"),
}


def run_table(argv: list[str]) -> int:
    """``dealerpi run``: the table daemon, handed the simulator's parts for ``--fake`` (the daemon imports no
    simulator, issue 22; the parts are made only on fake devices)."""
    from dealerpi.sim.hardware import SimHardware
    from dealerpi.table import daemon

    return daemon.main(argv, virtual=SimHardware())


def _usage() -> str:
    lines = ["usage: dealerpi COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<13} {help_text}" for name, (_, help_text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"dealerpi: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, _, func_name = COMMANDS[name][0].partition(":")
    func: Callable[[list[str]], int] = getattr(importlib.import_module(module_name), func_name)
    return func(rest)


if __name__ == "__main__":
    sys.exit(main())
