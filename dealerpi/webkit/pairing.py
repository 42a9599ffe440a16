"""The console's tokens and its pairing file: one token per role, kept where only the service user can read.

``tokens.json`` is made once (``secrets.token_urlsafe``, 128 bits) and kept, so a paired phone stays paired
across restarts; deleting it un-pairs every device. ``pairing.txt`` is written at each start with each
role's URL (token included). Both are created 0600 in the console's StateDirectory (0700): tokens never go
on a command line (``ps`` would show them) and are never logged. The host page shows the dealer's and the
board's URL as a QR code (segno) for pairing another device.
"""

from __future__ import annotations

import contextlib
import hmac
import io
import json
import os
import secrets
import socket
from collections.abc import Callable
from pathlib import Path

import segno

from dealerpi.wire.protocol import ROLES


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by this user only, replacing it atomically."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.new")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o600)                  # an existing file keeps its mode through O_CREAT: set it
        os.write(fd, text.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)


def load_tokens(state: Path, roles: tuple[str, ...] = ROLES) -> dict[str, str]:
    """Each role's token (128 bits) from ``state/tokens.json`` (0600), made on the first start; a damaged file
    is an error naming it (never silently new tokens: paired devices would stop working without a word). The
    console's roles by default; the broadcast process keeps its own file with its own ``roles``."""
    path = state / "tokens.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        tokens = {role: secrets.token_urlsafe(16) for role in roles}
        write_private(path, json.dumps(tokens, indent=1) + "\n")
        return tokens
    except ValueError as exc:
        raise ValueError(f"{path}: not JSON ({exc}); delete it to make new tokens (every device re-pairs)") from None
    if not (isinstance(data, dict) and all(isinstance(data.get(role), str) and len(data[role]) >= 16
                                           for role in roles)):
        raise ValueError(f"{path}: needs a token of 16 characters or more for each of {', '.join(roles)}; "
                         "delete it to make new tokens (every device re-pairs)")
    return {role: data[role] for role in roles}


def role_of(token: str, tokens: dict[str, str]) -> str | None:
    """The role whose token ``token`` is (compared in constant time), or None."""
    found = None
    for role, expected in tokens.items():
        if hmac.compare_digest(token.encode(), expected.encode()):
            found = role
    return found


def write_pairing(state: Path, urls: dict[str, str]) -> Path:
    """``state/pairing.txt``: one ``role URL`` line per role (0600)."""
    path = state / "pairing.txt"
    write_private(path, "".join(f"{role} {url}\n" for role, url in urls.items()))
    return path


def qr_svg(url: str) -> str:
    """``url`` as an SVG QR code (segno picks the smallest version; error correction M at least)."""
    code = segno.make_qr(url, error="m")
    # an <img> draws an SVG file only if its root is in the SVG namespace: svg_inline is for embedding in
    # HTML and leaves it out (segno's svg_inline saves with svgns=False), so save a whole SVG file
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, nl=False, scale=6, dark="#000", light="#fff")
    return out.getvalue().decode()


def local_address() -> str | None:
    """The IPv4 address of the interface the default route leaves by: the one phones on the home network
    reach. Found by connect() on a UDP socket, which picks a route and sends nothing (udp(7): connect only
    sets the default destination); None without a route (a Pi with no network yet)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))     # any address off this machine: no packet leaves
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def _resolve(name: str) -> str | None:
    """The IPv4 address ``name`` resolves to (nss-mdns asks the network for a ``.local`` name), or None."""
    with contextlib.suppress(OSError):
        return str(socket.getaddrinfo(name, None, socket.AF_INET)[0][4][0])
    return None


def local_name(listen_host: str, address: str | None, *, hostname: Callable[[], str] = socket.gethostname,
               resolve: Callable[[str], str | None] = _resolve) -> str | None:
    """``HOSTNAME.local`` when mDNS (avahi) answers it with ``address``, this machine's: a name that stays
    when DHCP moves the address. None on a loopback or a named ``listen``, or when the name is not ours."""
    if listen_host not in ("0.0.0.0", "::") or address is None:
        return None
    name = f"{hostname().split('.')[0]}.local"
    return name if resolve(name) == address else None


def page_urls(listen: str, port: int, tokens: dict[str, str],
              address: Callable[[], str | None] = local_address) -> dict[str, str]:
    """Each role's URL with its token. On a wildcard ``listen`` by the address phones reach (issue 19: the
    bare host name, ``http://vm:18766/``, is one phones often cannot resolve); else by the listen address."""
    host, _, _ = listen.rpartition(":")
    host = host.strip("[]")
    shown = (address() or socket.gethostname()) if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return {role: f"http://{shown}:{port}/{role}?token={token}" for role, token in tokens.items()}
