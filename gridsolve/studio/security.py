"""The studio's guard: every request must carry the run's token and come from this machine's page.

* The server binds 127.0.0.1 unless told otherwise.
* A random token is made for each run; the address printed carries it (``?token=...``).  A
  request with the right token in its URL gets it as a cookie (HttpOnly, SameSite=Strict);
  every other request must bring the cookie.
* The ``Host`` header must name the address the server listens on (a DNS rebinding page's
  requests name the attacker's host) and an ``Origin`` header, when sent, must be the
  studio's own.
Refused requests get a JSON error with status 403 (400 for a missing Host).
"""
from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from starlette.responses import JSONResponse

COOKIE = "gridsolve_studio"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def refuse(status: int, message: str, hint: str) -> JSONResponse:
    return JSONResponse({"error": message, "hint": hint}, status_code=status)


class Guard:
    """ASGI middleware: the token, Host and Origin checks in front of the app."""

    def __init__(self, app, token: str, hosts: set[str]):
        self.app, self.token, self.hosts = app, token, {h.lower() for h in hosts}

    def allowed_host(self, host: str) -> bool:
        return host.lower() in self.hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        response = self.check(scope, headers)
        if response is not None:
            return await response(scope, receive, send)
        given = _query_token(scope)
        if given is None:
            return await self.app(scope, receive, send)

        async def with_cookie(message):
            if message["type"] == "http.response.start":
                cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                message["headers"] = list(message.get("headers", [])) + [(b"set-cookie", cookie.encode())]
            await send(message)
        return await self.app(scope, receive, with_cookie)

    def check(self, scope, headers: dict) -> JSONResponse | None:
        host = headers.get("host")
        if not host:
            return refuse(400, "the request has no Host header", "open the address the studio printed")
        if not self.allowed_host(host):
            return refuse(403, f"Host {host[:80]} is not this studio's address",
                          "open the address the studio printed (DNS rebinding protection)")
        origin = headers.get("origin")
        if origin is not None and not self.allowed_origin(origin):
            return refuse(403, f"Origin {origin[:80]} is not this studio's page",
                          "requests must come from the studio's own page")
        given = _query_token(scope)
        cookie = _cookie(headers.get("cookie", ""))
        if not any(t is not None and secrets.compare_digest(t, self.token) for t in (given, cookie)):
            return refuse(403, "missing or wrong token", "open the address with ?token=... that "
                          "`gridsolve studio` printed when it started")
        return None

    def allowed_origin(self, origin: str) -> bool:
        parts = urlsplit(origin)
        return parts.scheme == "http" and self.allowed_host(parts.netloc)


def _query_token(scope) -> str | None:
    from urllib.parse import parse_qs
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
    return values[0] if values else None


def _cookie(header: str) -> str | None:
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return value
    return None


def hosts_for(host: str, port: int) -> set[str]:
    """The Host headers the studio answers: its address, and localhost for 127.0.0.1."""
    names = {host}
    if host in ("127.0.0.1", "localhost"):
        names |= {"127.0.0.1", "localhost"}
    if host == "::1":
        names = {"[::1]"}
    return {f"{name}:{port}" for name in names}
