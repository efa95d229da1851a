"""Design studies (docs/studies.md): a parameter sweep or a mesh-convergence study, each point an ordinary job."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import api_models as api
from .errors import FieldlineError
from .models import Mesh, Upload

if TYPE_CHECKING:
    from .client import Client

#: How often a study is polled (seconds), and how many failed polls in a row (network, 5xx) end the wait.
POLL_INTERVAL = 2.0
MAX_POLL_FAILURES = 10
FINISHED = ("completed", "cancelled")

Parameters = Mapping[str, Any] | Sequence[Mapping[str, Any]]


def parameter_list(parameters: Parameters | None) -> list[dict[str, Any]]:
    """The API's parameter list from either form the client takes.

    ``{"frequency": [9e9, 10e9], "forceLoads[0].force[2]": {"from": -100, "to": -500, "steps": 5}}`` (path →
    values, or path → range), or the API's own list ``[{"path": …, "values": […]}, {"path": …, "from": …}]``.
    """
    if parameters is None:
        return []
    if isinstance(parameters, Mapping):
        out: list[dict[str, Any]] = []
        for path, spec in parameters.items():
            if isinstance(spec, Mapping):
                out.append({"path": path, **spec})
            else:
                out.append({"path": path, "values": [float(v) for v in spec]})
        return out
    return [dict(p) for p in parameters]


def study_request(
    model: Mesh | Upload | str | Mapping[str, Any],
    config: Mapping[str, Any],
    *,
    outputs: Sequence[str],
    parameters: Parameters | None,
    combine: str,
    convergence: Mapping[str, Any] | None,
    name: str | None,
) -> dict[str, Any]:
    """The body of POST /api/fea/studies.

    ``model``: a Mesh (its mesh_data; with its upload, so mesh parameters and convergence can re-mesh it),
    an Upload or an upload id (meshed per point; face ids are then CAD face ids), or a mesh_data dict.
    """
    body: dict[str, Any] = {
        "name": name or f"{config.get('analysisType', 'analysis')} study (Python client)",
        "config": dict(config),
        "outputs": list(outputs),
        "parameters": parameter_list(parameters),
        "combine": combine,
    }
    if isinstance(model, Mesh):
        body["mesh_data"] = model.mesh_data()
        if model.upload is not None:
            body["upload_id"] = model.upload.upload_id
    elif isinstance(model, Upload):
        body["upload_id"] = model.upload_id
    elif isinstance(model, str):
        body["upload_id"] = model
    else:
        body["mesh_data"] = dict(model)
    if convergence is not None:
        body["convergence"] = dict(convergence)
    return body


class Study:
    """A design study on the server. ``wait()`` polls until every point has finished; ``table()`` reads it."""

    def __init__(self, client: Client, study_id: str) -> None:
        self.client = client
        self.id = study_id
        self.last_status: api.StudyResponse | None = None

    def __repr__(self) -> str:
        last = self.last_status
        if last is None:
            return f"Study({self.id!r})"
        progress = last["progress"]
        return (
            f"Study({self.id!r}, name={last['name']!r}, status={last['status']!r}, "
            f"points={progress['total']}, finished={progress['percent']:.0f}%)"
        )

    def status(self) -> api.StudyResponse:
        """GET /api/fea/studies/{id}: the summary, progress, every point (parameters, status, job, outputs)
        and the convergence report."""
        reply: api.StudyResponse = self.client._http.json("GET", f"/api/fea/studies/{self.id}")
        self.last_status = reply
        return reply

    @property
    def points(self) -> list[api.StudyResponsePointsItem]:
        """The points as last read (read now if never): index, parameters, status, job_id, outputs, error."""
        return list((self.last_status or self.status())["points"])

    @property
    def convergence(self) -> api.StudyResponseConvergence0 | None:
        """A convergence study's report (value, extrapolated, error_estimate, observed_order …), else None."""
        return (self.last_status or self.status())["convergence"]

    def wait(
        self,
        timeout: float | None = None,
        progress: bool | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> Study:
        """Polls every 2 s until the study is completed or cancelled, with a progress bar on a terminal.

        ``timeout`` in seconds (default None: no limit, a study takes as long as its points); over it, a
        FieldlineError ``timeout`` (the study keeps running on the server). A refusal (401, 403, 404) ends
        the wait at once; more than 10 failed polls in a row (network, 5xx) end it too. A study whose
        points failed still completes: each point says why (``points``, the table's error column).
        """
        show = sys.stderr.isatty() if progress is None else progress
        bar = _progress_bar() if show else None
        started = time.monotonic()
        failures = 0
        try:
            while True:
                try:
                    last = self.status()
                    failures = 0
                except FieldlineError as err:
                    if err.status is not None and err.status < 500 and err.status != 429:
                        raise
                    failures += 1
                    if failures > MAX_POLL_FAILURES:
                        raise FieldlineError(
                            f"Polling failed after {failures} attempts: {err.message}", code="polling_failed"
                        ) from err
                else:
                    if bar is not None:
                        bar.update_to(last["progress"])
                    if last["status"] in FINISHED:
                        return self
                if timeout is not None and time.monotonic() - started >= timeout:
                    raise FieldlineError(
                        f"The study did not finish in {timeout:.0f} seconds. It is still running on the server.",
                        code="timeout",
                    )
                sleep(POLL_INTERVAL)
        finally:
            if bar is not None:
                bar.close()

    def cancel(self) -> api.CancelStudyResponse:
        """POST /api/fea/studies/{id}/cancel: waiting points cancelled, running ones stopped (their time is
        charged), finished ones kept."""
        reply: api.CancelStudyResponse = self.client._http.json("POST", f"/api/fea/studies/{self.id}/cancel")
        return reply

    def table(self, numpy: bool = False) -> list[dict[str, Any]] | dict[str, Any]:
        """The study's table (GET …/table): one dict per point, column → value (a parameter's path, an
        output's name, status, job_id, error …); missing values are None.

        ``numpy=True``: column → numpy array instead (numeric columns float64 with NaN for missing values,
        the others object arrays), e.g. ``t["capacitance_F"] / t["defaultPermittivity"]``.
        """
        reply: api.StudyTableResponse = self.client._http.json(
            "GET", f"/api/fea/studies/{self.id}/table", params={"format": "json"}
        )
        columns = reply["columns"]
        rows = [dict(zip(columns, row, strict=True)) for row in reply["rows"]]
        if not numpy:
            return rows
        import numpy as np

        out: dict[str, Any] = {}
        for k, column in enumerate(columns):
            values = [row[k] for row in reply["rows"]]
            numeric = all(v is None or isinstance(v, (int, float)) for v in values)
            if numeric and any(v is not None for v in values):
                out[column] = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
            else:
                out[column] = np.array(values, dtype=object)
        return out

    def csv(self) -> str:
        """The table as CSV text (a header row, then one row per point)."""
        return self.client._http.request(
            "GET", f"/api/fea/studies/{self.id}/table", params={"format": "csv"}
        ).text


def _progress_bar() -> Any:
    from tqdm import tqdm

    class Bar(tqdm):  # type: ignore[misc, type-arg]
        def update_to(self, progress: api.StudyResponseProgress) -> None:
            done = progress["completed"] + progress["failed"] + progress["cancelled"]
            self.set_postfix_str(
                f"{done}/{progress['total']} points, {progress['running']} running, {progress['failed']} failed",
                refresh=False,
            )
            self.update(max(0.0, float(progress["percent"]) - self.n))

    return Bar(total=100, desc="Study", unit="%", bar_format="{desc}: {percentage:3.0f}%|{bar}| {postfix}")
