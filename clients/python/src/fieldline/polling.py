"""Waiting for a job as the product's own environment does (spec 001 §7 and §9, polling rules).

Analysis: first poll after 1 s, then every 2 s; 150 attempts make the 300 s default limit. A 404 reads as
"running, 0 %" and a 500 as "running, 50 %"; other failed polls (network, 502/504) are retried, and more
than 10 of them end the wait with "Polling failed after {n} attempts: …". A busy server (503, or 429 on a
poll) adds 5 to the shown progress (up to 95) and waits 4 s (or its Retry-After). Meshing polls every 2 s,
60 attempts, tolerating 5 failed polls. A 401 or 403 (a revoked or expired token) ends the wait at once.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._http import Http, error_from_response
from .errors import FieldlineError


@dataclass(frozen=True)
class PollingRules:
    first_delay: float
    interval: float
    max_attempts: int
    max_failures: int
    timeout_seconds: float | None = None
    busy_delay: float = 4.0
    timeout_message: str = (
        "Analysis timed out after {seconds:.0f} seconds. The job may still be running on the server."
    )
    failure_message: str = "Polling failed after {n} attempts: {error}"


ANALYSIS = PollingRules(first_delay=1.0, interval=2.0, max_attempts=150, max_failures=10, timeout_seconds=300)
MESHING = PollingRules(
    first_delay=2.0,
    interval=2.0,
    max_attempts=60,
    max_failures=5,
    timeout_seconds=120,
    timeout_message="Tetrahedralization timed out after {seconds:.0f} seconds. The job may still be running on the server.",
    failure_message="Tetrahedralization polling failed after {n} attempts: {error}",
)


def rules_for(kind: str, timeout: float | None) -> PollingRules:
    """The spec's rules for a job kind; `timeout` (seconds, None: no limit) replaces its attempt count."""
    base = MESHING if kind == "meshing" else ANALYSIS
    if timeout is None:
        return PollingRules(**{**base.__dict__, "max_attempts": sys.maxsize, "timeout_seconds": None})
    attempts = max(1, round(timeout / base.interval))
    return PollingRules(**{**base.__dict__, "max_attempts": attempts, "timeout_seconds": timeout})


ProgressCallback = Callable[[float, str], None]


def wait_for_job(
    http: Http,
    job_id: str,
    rules: PollingRules,
    on_progress: ProgressCallback | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Polls GET /api/fea/status/{job_id} until the job leaves queued/running; returns the last reply.

    A failed or cancelled job is returned too (the caller decides); the limits above raise FieldlineError.
    """
    failures = 0
    shown = 0.0
    delay = rules.first_delay
    started = time.monotonic()
    for _attempt in range(rules.max_attempts):
        sleep(delay)
        delay = rules.interval
        try:
            response = http.raw("GET", f"/api/fea/status/{job_id}")
        except FieldlineError as err:
            failures += 1
            if failures > rules.max_failures:
                raise FieldlineError(
                    rules.failure_message.format(n=failures, error=err.message), code="polling_failed"
                ) from err
            continue
        status = response.status_code
        if status in (401, 403):
            raise error_from_response(response)
        if status == 404:
            shown = 0.0
            _report(on_progress, shown, "Waiting for the job")
            continue
        if status == 500:
            shown = 50.0
            _report(on_progress, shown, "Running")
            continue
        if status in (503, 429):
            shown = min(95.0, shown + 5.0)
            retry = error_from_response(response).retry_after
            delay = max(rules.busy_delay, retry or 0.0)
            _report(on_progress, shown, "Server busy")
            continue
        if status >= 400:
            failures += 1
            if failures > rules.max_failures:
                refusal = error_from_response(response)
                raise FieldlineError(
                    rules.failure_message.format(n=failures, error=refusal.message),
                    status=status,
                    code="polling_failed",
                )
            continue
        body = response.json()
        state = body.get("status")
        shown = float(body.get("progress") or shown)
        _report(on_progress, shown, str(body.get("message") or state or ""))
        # Unknown states are treated as still running (spec 001 §4).
        if state in ("completed", "failed", "cancelled"):
            return body
    seconds = rules.timeout_seconds if rules.timeout_seconds is not None else time.monotonic() - started
    raise FieldlineError(rules.timeout_message.format(seconds=seconds), code="timeout")


def _report(callback: ProgressCallback | None, percent: float, message: str) -> None:
    if callback is not None:
        callback(percent, message)
