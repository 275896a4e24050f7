"""What stands between the network and the application: headers, origins, bodies and timeouts.

`Guard` wraps the whole Starlette application (every response passes through it,
static files and error pages included): it adds the security headers, refuses an API
request or a WebSocket whose ``Origin`` is not the server's own (nor one the host
allowed with ``--allow-origin``), refuses a body larger than ``--max-body`` before
reading it (by its ``Content-Length``, or while it streams in, at the first part
beyond), and answers a body that stalls for ``--idle-timeout`` with 408. `guarded_http` is
uvicorn's HTTP protocol with a deadline for a request's headers, so a client that
trickles them (slow-loris) is closed after ``--header-timeout`` seconds.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from .guards import Limits

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
_HEADERS = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in SECURITY_HEADERS.items()]
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")


def is_loopback(host: str) -> bool:
    return host in LOOPBACK_NAMES or host.startswith("127.")


class Guard:
    """The ASGI middleware of the module docstring. ``loopback``: the server listens on this machine only,
    so a request must name this machine in its ``Host`` too (a page of another site that had a name of
    its own resolve to 127.0.0.1, DNS rebinding, is refused)."""

    def __init__(self, app: ASGIApp, limits: Limits, loopback: bool):
        self.app, self.limits, self.loopback = app, limits, loopback
        self.allowed = {o.rstrip("/").lower() for o in limits.allow_origins}
        self.refused = 0  # requests refused here (origin, size, stall)

    def origin_ok(self, scope: Scope) -> bool:
        """No ``Origin`` (not a browser's page: a command-line client), the server's own, or an allowed one."""
        headers = dict(scope.get("headers") or [])
        origin = headers.get(b"origin")
        if origin is None:
            return True
        text = origin.decode("latin-1").rstrip("/").lower()
        if text in self.allowed:
            return True
        host = headers.get(b"host", b"").decode("latin-1").lower()
        parts = urlsplit(text)
        if parts.scheme not in ("http", "https") or not host or parts.netloc != host:
            return False
        return not self.loopback or is_loopback(parts.hostname or "")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            if not self.origin_ok(scope):
                self.refused += 1
                await send({"type": "websocket.close", "code": 4403, "reason": "origin not allowed"})
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in _HEADERS if h[0] not in have)]
            await send(message)

        if scope["path"].startswith("/api/") and not self.origin_ok(scope):
            self.refused += 1
            await _answer(send_guarded, 403, "this server answers pages of its own origin only")
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        limit = self.limits.max_body
        if length is not None and (not length.isdigit() or int(length) > limit):
            self.refused += 1
            await _answer(send_guarded, 413, f"a request's body may hold at most {limit:,} bytes")
            return
        if scope.get("method") not in BODIES:
            await self.app(scope, receive, send_guarded)
            return
        # A body is read here, whole, before the application sees it: at most --max-body bytes, each
        # part within --idle-timeout of the last (the limit is small, so holding it costs nothing).
        body = bytearray()
        while True:
            try:
                message = await asyncio.wait_for(receive(), self.limits.idle_timeout)
            except asyncio.TimeoutError:
                self.refused += 1
                await _answer(send_guarded, 408, "the request's body stopped arriving")
                return
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                self.refused += 1
                await _answer(send_guarded, 413, f"a request's body may hold at most {limit:,} bytes")
                return
            if not message.get("more_body"):
                break
        whole: list[Message] = [{"type": "http.request", "body": bytes(body), "more_body": False}]

        async def receive_read() -> Message:
            return whole.pop() if whole else await receive()

        await self.app(scope, receive_read, send_guarded)


BODIES = ("POST", "PUT", "PATCH", "DELETE")


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"errors": {"": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def guarded_http(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request's headers take over ``header_timeout`` seconds.

    The deadline runs from the connection's start and again after each response, and ends
    once the headers are in (the body has `Guard`'s idle timeout; a WebSocket its own pings)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return GuardedH11


def guarded_ws() -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol, closing a connection that sends a text frame of invalid UTF-8 with
    code 1007 (as uvicorn does) but without logging a traceback: it is the client's fault, not the server's."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class GuardedWebSockets(WebSocketsSansIOProtocol):
        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text" and not self.close_sent:
                data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    self.frames = []
                    self.conn.send_close(1007, "text frames are UTF-8")
                    self.handle_parser_exception()
                    return
            super().send_receive_event_to_app()

    return GuardedWebSockets
