"""``dealerpi console --config FILE``: the pages (:mod:`dealerpi.console.server`) and, when the config has
``[mqtt]``, the card room's bridge (:mod:`dealerpi.console.mqtt_bridge`), in one process. Apart from the
server so that the bridge, which talks to the daemon through the server's :class:`DaemonLink`, and the server
do not import each other (issue 22: no circle)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from dealerpi import config as config_module
from dealerpi.console.mqtt_bridge import with_bridge
from dealerpi.console.server import serve
from dealerpi.webkit.running import run_until_signal


def main(argv: list[str]) -> int:
    """``dealerpi console --config FILE``."""
    parser = argparse.ArgumentParser(prog="dealerpi console",
                                     description="The host console: the table's pages, served apart from the daemon.")
    parser.add_argument("--config", type=Path, default=config_module.DEFAULT_PATH)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        config = config_module.load(args.config)
    except config_module.ConfigError as exc:
        print("\n".join(exc.errors), file=sys.stderr)
        return 2
    if config.console is None:
        print(f"{args.config}: no [console] section: add one (docs/console.md)", file=sys.stderr)
        return 2
    return run_until_signal(with_bridge(config, serve(config.console, journal=config.journal)), "dealerpi console")
