"""Security headers the project adds to every response.

``ContentSecurityPolicyMiddleware``: scripts, styles, images, fonts and connections come from this
site only — no inline script or style, no CDN, no framing — so that a name or a chat line that
slipped past escaping still cannot run. The table page's websocket is allowed
explicitly for the request's own host (``ws:``/``wss:``), because older browsers do not let
``'self'`` cover websocket schemes. Data blocks (``{{ …|json_script }}``, ``type=
"application/json"``) are not scripts and need no exception.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)


def content_security_policy(request: HttpRequest) -> str:
    """The policy for a page served to ``request`` (its websocket origin included)."""
    scheme = "wss" if request.is_secure() else "ws"
    connect = f"connect-src 'self' {scheme}://{request.get_host()}"
    return "; ".join((*POLICY, connect))


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = content_security_policy(request)
        return response
