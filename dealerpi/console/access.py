"""Who may open a web page of ours: one guard for the console's pages and the room page (docs/console.md).

Each role has a token (:mod:`dealerpi.console.pairing`). A page opened with ``?token=`` (or ``?t=``, the QR
code's short form) gets it as an HttpOnly, SameSite=Strict cookie and is sent on to the same address without
it (out of the address bar and the history; other query keys stay). On a loopback ``listen`` a request without
a token is the host (whoever is on the machine itself) if it names the loopback host (a DNS-rebinding page names
its own); any other ``listen`` needs a token for everything. A change (not a GET) needs the page's own Origin,
and :func:`same_origin` refuses a WebSocket opened from a page of another origin.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from dealerpi.console.pairing import role_of

ROLE = web.RequestKey("role", str)      # the request's role, set by the guard: host, dealer or board


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
                where: str) -> Middleware:
    """The aiohttp middleware. ``what`` names the service in its refusals ("this console"), ``where`` says
    where its token is found ("the console's pairing.txt or the host's QR code")."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        given = request.query.get("token") or request.query.get("t") or request.cookies.get(cookie) or ""
        role = role_of(given, tokens) if given else None
        if role is None:
            if given or token_required:
                return web.Response(status=401, text=f"401: {what} needs its token: open the URL from {where}\n")
            if not is_loopback(urlsplit(f"//{request.host}").hostname or ""):
                return web.Response(status=403, text=f"403: without a token {what} answers to 127.0.0.1 only\n")
            role = "host"
        request[ROLE] = role
        if request.method != "GET" and (request.headers.get("Origin") is None or not same_origin(request)):
            return web.Response(status=403, text=f"403: a change comes from {what}'s own pages only\n")
        if "token" in request.query or "t" in request.query:
            query = "&".join(f"{k}={v}" for k, v in request.query.items() if k not in ("token", "t"))
            response = web.HTTPSeeOther(request.path + (f"?{query}" if query else ""))
            response.set_cookie(cookie, given, httponly=True, samesite="Strict", max_age=400 * 86400)
            raise response
        return await handler(request)

    return guard
