"""HTTP plumbing: one httpx client, bearer auth, and every refusal turned into FieldlineError."""

from __future__ import annotations

import os
from typing import Any

import httpx

from .errors import FieldlineError

USER_AGENT = "fieldline-client/0.1.0"


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def error_from_response(response: httpx.Response) -> FieldlineError:
    """The server's `{error, message}` reply as a FieldlineError (plain text replies kept as the message)."""
    body: Any
    try:
        body = response.json()
    except ValueError:
        body = response.text
    if isinstance(body, dict):
        message = str(
            body.get("message") or body.get("error") or f"Request failed with status {response.status_code}"
        )
        code = body.get("error") if isinstance(body.get("error"), str) else None
    else:
        message = (body or "").strip() or f"Request failed with status {response.status_code}"
        code = None
    return FieldlineError(
        message, status=response.status_code, code=code, body=body, retry_after=_retry_after(response)
    )


class Http:
    """Requests to one Fieldline server with one API token."""

    def __init__(
        self,
        base_url: str | None,
        token: str | None,
        *,
        timeout: float = 120.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        base = base_url or os.environ.get("FIELDLINE_URL")
        if not base:
            raise FieldlineError(
                "No server: pass Client(base_url=...) or set FIELDLINE_URL", code="configuration"
            )
        secret = token if token is not None else os.environ.get("FIELDLINE_TOKEN")
        if not secret:
            raise FieldlineError(
                "No API token: pass Client(token=...) or set FIELDLINE_TOKEN (create one on the dashboard, API tokens)",
                code="configuration",
            )
        self.base_url = base.rstrip("/")
        self._client = httpx.Client(
            base_url=self.base_url,
            headers={"authorization": f"Bearer {secret}", "user-agent": USER_AGENT},
            timeout=timeout,
            transport=transport,
            follow_redirects=False,
        )

    def close(self) -> None:
        self._client.close()

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The reply of a successful call; FieldlineError for a refusal or when no reply came."""
        try:
            response = self._client.request(method, path, **kwargs)
        except httpx.TimeoutException as err:
            raise FieldlineError(f"The server did not answer in time ({err})", code="timeout") from err
        except httpx.HTTPError as err:
            raise FieldlineError(f"Could not reach {self.base_url}: {err}", code="network") from err
        if response.status_code >= 400:
            raise error_from_response(response)
        return response

    def raw(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The reply whatever its status (the poller decides); network errors still raise."""
        try:
            return self._client.request(method, path, **kwargs)
        except httpx.HTTPError as err:
            raise FieldlineError(f"Could not reach {self.base_url}: {err}", code="network") from err

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.request(method, path, **kwargs).json()
