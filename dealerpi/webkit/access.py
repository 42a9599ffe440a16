"""Who may open a web page of ours: one guard for the console's pages and the room page (docs/console.md).

Each role has a token (:mod:`dealerpi.webkit.pairing`). A page opened with ``?token=`` (or ``?t=``, the QR
code's short form) gets it as an HttpOnly, SameSite=Strict cookie and is sent on to the same address without
it (out of the address bar and the history; other query keys stay). On a loopback ``listen`` a request without
a token is the host (whoever is on the machine itself) if it names the loopback host (a DNS-rebinding page names
its own); any other ``listen`` needs a token for everything. A change (not a GET) needs the page's own Origin,
and :func:`same_origin` refuses a WebSocket opened from a page of another origin.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from dealerpi.webkit.devices import Devices
from dealerpi.webkit.pairing import role_of

ROLE = web.RequestKey("role", str)      # the request's role, set by the guard: host, dealer or board
DEVICE = web.RequestKey("device", str)  # the paired device's id ("" for a role token or the loopback host)

# Clickjacking (issue 19): no page of ours inside another site's frame (OWASP Clickjacking Defense Cheat
# Sheet: CSP frame-ancestors, and X-Frame-Options for browsers without it). The rest of the policy is what the
# pages use: their own scripts, styles and WebSocket ('self' covers ws: of the same host, CSP Level 3), and
# data: images (the virtual-hardware panel's display frames). Checked in Chromium (test_console_csp_browser).
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer, errors and redirects too, carries :data:`SECURITY_HEADERS`."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(SECURITY_HEADERS)
        raise
    if not response.prepared:                    # a WebSocket is already under way
        response.headers.update(SECURITY_HEADERS)
    return response


def local_path(path: str) -> str:
    """``path`` as a path of this server: ``//evil.example/x`` (or ``/\\evil...``, which browsers read the
    same) would send the browser to another site, so leading slashes and backslashes become one slash."""
    return "/" + path.lstrip("/\\")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def same_origin(request: web.Request) -> bool:
    """True without an Origin (not a browser page) or with this server's own."""
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host


def token_guard(tokens: dict[str, str], token_required: bool, cookie: str, *, what: str,
                where: str, devices: Devices | None = None,
                redeemed: Callable[[str], None] | None = None) -> Middleware:
    """The aiohttp middleware. ``what`` names the service in its refusals ("this console"), ``where`` says
    where its token is found ("the console's pairing.txt or the host's QR code"). With ``devices`` a URL's
    role token or one-time code pairs the browser with a device token of its own (devices.py), and
    ``redeemed(role)`` is told of each code used."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        in_url = request.query.get("token") or request.query.get("t") or ""
        given = in_url or request.cookies.get(cookie) or ""
        role = role_of(given, tokens) if given else None
        device = ""
        if role is None and given and devices is not None:
            found = devices.role_of(given) if not in_url else None
            if found is not None:
                role, device = found
            elif in_url and (role := devices.redeem(in_url)) is not None and redeemed is not None:
                redeemed(role)
        if role is None:
            if given or token_required:
                return web.Response(status=401, text=f"401: {what} needs its token: open the URL from {where}\n")
            if not is_loopback(urlsplit(f"//{request.host}").hostname or ""):
                return web.Response(status=403, text=f"403: without a token {what} answers to 127.0.0.1 only\n")
            role = "host"
        request[ROLE] = role
        request[DEVICE] = device
        if request.method != "GET" and (request.headers.get("Origin") is None or not same_origin(request)):
            return web.Response(status=403, text=f"403: a change comes from {what}'s own pages only\n")
        if "token" in request.query or "t" in request.query:
            query = "&".join(f"{k}={v}" for k, v in request.query.items() if k not in ("token", "t"))
            response = web.HTTPSeeOther(local_path(request.path) + (f"?{query}" if query else ""))
            kept = given if devices is None else devices.pair(role, request.headers.get("User-Agent", ""))
            response.set_cookie(cookie, kept, httponly=True, samesite="Strict", max_age=400 * 86400)
            raise response
        return await handler(request)

    return guard
