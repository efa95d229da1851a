"""The one exception the client raises for a refused or failed call."""

from __future__ import annotations

from typing import Any


class FieldlineError(Exception):
    """A call the server refused, a job that failed, or a server that could not be reached.

    ``status`` is the HTTP status (402 balance, 413 model too large, 429 rate or concurrency limit,
    401 invalid token, 403 scope, 404 not found …), or ``None`` when no reply came (network, timeout)
    or a job failed on the server. ``code`` is the server's stable error code (``insufficient_balance``,
    ``model_too_large``, ``rate_limited``, ``job_failed``, ``timeout`` …) and ``message`` its sentence.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        body: Any = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.body = body
        self.retry_after = retry_after

    @property
    def payment_required(self) -> bool:
        """402: the balance does not cover the job's estimate (buy tokens on the Billing page)."""
        return self.status == 402

    @property
    def too_large(self) -> bool:
        """413: the model is over the plan's (or the server's) size limit."""
        return self.status == 413

    @property
    def rate_limited(self) -> bool:
        """429: too many requests, or too many simulations at once; ``retry_after`` says when to retry."""
        return self.status == 429

    def __str__(self) -> str:
        where = f"HTTP {self.status}" if self.status is not None else (self.code or "error")
        return f"{where}: {self.message}"

    def __repr__(self) -> str:
        return f"FieldlineError(status={self.status!r}, code={self.code!r}, message={self.message!r})"
