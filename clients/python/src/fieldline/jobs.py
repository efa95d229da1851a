"""A job on the server: its status, waiting with a progress bar, results and downloads."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from . import api_models as api
from . import polling
from .errors import FieldlineError
from .results import Results, decode_results_binary, results_from_json, to_meshio

if TYPE_CHECKING:
    from .client import Client

DownloadFormat = Literal["json", "touchstone", "csv"]


class Job:
    """A meshing or analysis job. ``wait()`` polls until it ends; a failure raises FieldlineError."""

    def __init__(self, client: Client, job_id: str, kind: str = "analysis") -> None:
        self.client = client
        self.id = job_id
        self.kind = kind
        self.last_status: api.JobStatusResponse | dict[str, Any] | None = None

    def __repr__(self) -> str:
        state = self.last_status.get("status") if self.last_status else "unknown"
        return f"Job({self.id!r}, kind={self.kind!r}, status={state!r})"

    def status(self) -> api.JobStatusResponse:
        """GET /api/fea/status/{id}: status, progress, message, error (and results once completed)."""
        reply: api.JobStatusResponse = self.client._http.json("GET", f"/api/fea/status/{self.id}")
        self.last_status = reply
        return reply

    def info(self) -> api.ResultsInfoResponse:
        """GET /api/fea/results/{id}/info: bookkeeping (times, cost), files and what the results hold."""
        reply: api.ResultsInfoResponse = self.client._http.json("GET", f"/api/fea/results/{self.id}/info")
        return reply

    def wait(self, timeout: float | None = -1, progress: bool | None = None) -> Job:
        """Polls as the spec says until the job ends; raises FieldlineError if it failed or was cancelled.

        ``timeout`` in seconds (default: the spec's 300 s for analyses, 120 s for meshing; None: no limit).
        ``progress``: a tqdm bar on stderr (default: when stderr is a terminal).
        """
        if timeout is not None and timeout < 0:
            rules = polling.MESHING if self.kind == "meshing" else polling.ANALYSIS
        else:
            rules = polling.rules_for(self.kind, timeout)
        show = sys.stderr.isatty() if progress is None else progress
        bar = _progress_bar(self.kind) if show else None
        try:
            last = polling.wait_for_job(
                self.client._http, self.id, rules, on_progress=bar.update_to if bar else None
            )
        finally:
            if bar is not None:
                bar.close()
        self.last_status = last
        state = last.get("status")
        if state == "failed":
            message = str(last.get("error") or last.get("message") or "Analysis failed on server")
            raise FieldlineError(message, code="job_failed", body=last)
        if state == "cancelled":
            raise FieldlineError(
                str(last.get("message") or "The job was cancelled"), code="job_cancelled", body=last
            )
        return self

    def cancel(self) -> api.CancelResponse:
        """POST /api/fea/cancel/{id} (time already used is charged)."""
        reply: api.CancelResponse = self.client._http.json("POST", f"/api/fea/cancel/{self.id}")
        return reply

    def results(self) -> Results:
        """The results (float64, from results.json): fields by catalogue name, quantities, S-parameters."""
        return results_from_json(self.results_json())

    def results_json(self) -> dict[str, Any]:
        """results.json as a dict (GET /api/fea/download/{id}?format=json)."""
        return self.client._http.json("GET", f"/api/fea/download/{self.id}", params={"format": "json"})

    def binary_results(self) -> Results:
        """Mesh and fields from results.bin (float32; compact for large meshes; no quantities)."""
        data = self.client._http.request("GET", f"/api/fea/results/{self.id}/binary").content
        return decode_results_binary(data)

    def download(self, format: DownloadFormat = "json", path: str | Path | None = None) -> bytes:
        """The results JSON, or the S-parameters as Touchstone or CSV; written to ``path`` when given."""
        response = self.client._http.request("GET", f"/api/fea/download/{self.id}", params={"format": format})
        if path is not None:
            Path(path).write_bytes(response.content)
        return response.content

    def download_name(self, format: DownloadFormat) -> str:
        """The file name the server gives a download (`fea_results_<id>.json`, `<name>.s2p`, …)."""
        response = self.client._http.request("GET", f"/api/fea/download/{self.id}", params={"format": format})
        disposition = response.headers.get("content-disposition", "")
        if 'filename="' in disposition:
            return disposition.split('filename="', 1)[1].split('"', 1)[0]
        return f"fea_results_{self.id}.{'json' if format == 'json' else format}"

    def to_meshio(self) -> Any:
        """A meshio.Mesh of the result (tetrahedra, every field as point or cell data), from results.bin."""
        return to_meshio(self.binary_results())

    def save_vtu(self, path: str | Path) -> Path:
        """Writes the result as a VTU file (ParaView, meshio) and returns its path."""
        out = Path(path)
        self.to_meshio().write(out, file_format="vtu")
        return out


def _progress_bar(kind: str) -> Any:
    from tqdm import tqdm

    class Bar(tqdm):  # type: ignore[misc, type-arg]
        def update_to(self, percent: float, message: str) -> None:
            self.set_postfix_str(message[:40], refresh=False)
            self.update(max(0.0, percent - self.n))

    label = "Meshing" if kind == "meshing" else "Analysis"
    return Bar(total=100, desc=label, unit="%", bar_format="{desc}: {percentage:3.0f}%|{bar}| {postfix}")
