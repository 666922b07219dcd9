"""What every response carries, and what every request is checked for first.

Every response (a page, a picture, the style sheet, an error) gets a strict
Content-Security-Policy: scripts and styles only from the pages' own files, no inline
script (the deal viewer reads its data from a ``<script type="application/json">``,
which runs nothing), requests only to the bot itself (the viewer's deals, the live
table's socket), no frames, no form posts elsewhere; the address is never sent on to
another site (links carry tokens). A request is refused before any work when it is
not a GET or HEAD, carries a body, has an overlong path or query, or comes too fast
from one address.
"""

from __future__ import annotations

import ipaddress

from aiohttp import web

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
MAX_PATH = 300
"""Characters of a path at most: the longest page's is about 100."""
MAX_QUERY = 200


async def add_headers(request: web.Request, response: web.StreamResponse) -> None:
    """The application's ``on_response_prepare``: every response gets :data:`HEADERS`
    (a page that set its own policy, the live table's, keeps it)."""
    framed = "frame-ancestors 'none'" not in response.headers.get(
        "Content-Security-Policy", CONTENT_SECURITY_POLICY
    )
    for name, value in HEADERS.items():
        if name == "X-Frame-Options" and framed:
            continue  # the response's own policy names who may frame it (the Activity)
        response.headers.setdefault(name, value)


def client_address(request: web.Request) -> str:
    """The address a rate limit counts: the peer's; behind a reverse proxy on the same
    machine (the peer is a loopback address), the last one ``X-Forwarded-For`` names."""
    peer = request.remote or ""
    try:
        loopback = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        loopback = False
    forwarded = request.headers.get("X-Forwarded-For", "")
    if loopback and forwarded:
        last = forwarded.split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(last))
        except ValueError:
            return peer
    return peer


def malformed(request: web.Request, *, body: bool = False) -> str | None:
    """Why the request is refused before routing (400), or None; ``body``: the request
    may carry one (the application's ``client_max_size`` still bounds it)."""
    if (
        len(request.rel_url.raw_path) > MAX_PATH
        or len(request.rel_url.raw_query_string) > MAX_QUERY
    ):
        return "too long"
    if request.body_exists and not body:
        return "a body"
    return None
