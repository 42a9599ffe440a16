"""The broker's access control for a room: ``dealerpi room broker-files`` writes mosquitto's ``acl_file`` and
``password_file`` (docs/room.md).

mosquitto.conf(5) and mosquitto.org/documentation/plugins/acl-file: ``pattern`` lines apply to every client,
``%u`` is the client's user name (its CONNECT user, never the client id); ``user NAME`` starts the lines of
one user. Each table's user is its name, so a table may write its own state, availability, hands and
command answers and read its own commands, and nothing else; the room reads everything of its prefix and
writes commands. A streamed table's broadcast process publishes its delayed feed under ``broadcast/<table>/``
(docs/broadcast.md), which only the room may read. Passwords are hashed by ``mosquitto_passwd -U`` (a file
of ``user:password`` lines hashed in place), so no password is on a command line.

Client ids are bound to the users (issue 20): MQTT lets a client that connects with an id already connected
take the session over, and the broker disconnects the first one (MQTT 3.1.1, 3.1.4) and, for the room, sends its
last will. With fixed ids (``dealerpi-room``) a table's credentials could throw the room off the broker. The
ACL cannot stop that (it governs topics, not CONNECT); mosquitto.conf(5), ``use_username_as_clientid``: "Set
use_username_as_clientid to true to replace the clientid that a client connected with its username. This
allows authentication to be tied to the clientid, which means that it is possible to prevent one client
disconnecting another by using the same clientid." It is a listener's option (it follows ``listener``), so
``dealerpi.conf`` here carries it with the listener, for ``/etc/mosquitto/conf.d/``.
"""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

from dealerpi.wire.broker import ROOM


def acl_text(prefix: str) -> str:
    return (f"# DealerPi card room (docs/room.md): each table only under {prefix}/<its user name>\n"
            f"pattern write {prefix}/%u\n"
            f"pattern write {prefix}/%u/availability\n"
            f"pattern write {prefix}/%u/hand\n"
            f"pattern write {prefix}/%u/set/result\n"
            f"pattern read {prefix}/%u/set\n"
            f"# a streamed table's delayed feed (docs/broadcast.md): its own topic, read by the room only\n"
            f"pattern write broadcast/%u/#\n"
            f"\nuser {ROOM}\n"
            f"topic read {prefix}/#\n"
            f"topic read broadcast/#\n"
            f"topic write {prefix}/+/set\n"
            f"topic readwrite {prefix}/{ROOM}/#\n")


def conf_text(folder: Path, listen: str = "1883 0.0.0.0") -> str:
    """mosquitto's configuration for a room: the listener, each client id bound to its user (the module
    docstring), no anonymous client, these files."""
    return (f"# DealerPi card room (docs/room.md)\nlistener {listen}\n"
            "use_username_as_clientid true\n"
            f"allow_anonymous false\npassword_file {folder / 'passwd'}\nacl_file {folder / 'acl'}\n")


def write_broker_files(folder: Path, prefix: str, tables: list[str]) -> dict[str, Path]:
    """``acl``, ``passwd`` (hashed), ``dealerpi.conf`` and one ``NAME.password`` file per user (0600: copy each
    to its machine). Existing password files are kept, so re-running adds tables without changing the others'
    passwords."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "acl").write_text(acl_text(prefix), encoding="utf-8")
    (folder / "dealerpi.conf").write_text(conf_text(folder.resolve()) + "persistence true\n", encoding="utf-8")
    lines = []
    for user in [ROOM, *tables]:
        path = folder / f"{user}.password"
        if not path.exists():
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as file:
                file.write(secrets.token_urlsafe(18) + "\n")
        lines.append(f"{user}:{path.read_text(encoding='utf-8').strip()}\n")
    passwd = folder / "passwd"
    fd = os.open(passwd, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as file:
        file.writelines(lines)
    subprocess.run(["mosquitto_passwd", "-U", str(passwd)], check=True, capture_output=True)
    return {"acl": folder / "acl", "passwd": passwd, "conf": folder / "dealerpi.conf"}
