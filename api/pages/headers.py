"""What every page's answer carries, whichever blueprint serves it: its security headers, and the list pages' size."""

from __future__ import annotations

from flask import Response

PAGE_SIZE = 25
"""Games (or players) per page of a list."""

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def page_headers(response: Response) -> Response:
    """Pages are HTML built for this site only: no inline code, no framing, no referrer."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response
