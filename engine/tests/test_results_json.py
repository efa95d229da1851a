"""results.json's writer (io/job_files.py): orjson's bytes read back as json.dumps's would, and a NaN or inf
anywhere still fails the write, as json.dumps(allow_nan=False) did."""

import json

import numpy as np
import pytest

from fieldline_engine.io.job_files import json_bytes, read_job, write_json_atomic


def _payload() -> dict:
    grid = np.arange(12, dtype=np.float64).reshape(3, 4) / 7.0
    return {
        "fields": {"t": {"data": np.linspace(0.1, 1.3, 7), "imag": None}},
        "strided": grid[:, ::2],  # not C-contiguous: through the default hook
        "ints": np.arange(5, dtype=np.int64),
        "scalars": [np.float64(1e-5), np.int32(3), np.bool_(True), 2.5e300, -0.0],
        "nested": {"displacement": [None, None, 0], 3: "int key", "unit": "K·m⁻¹"},
    }


def test_same_values_as_json_dumps():
    payload = _payload()
    ours = json.loads(json_bytes(payload))

    def plain(value):
        if isinstance(value, np.ndarray | np.generic):
            return value.tolist()
        raise TypeError(value)

    reference = json.loads(json.dumps(payload, allow_nan=False, default=plain))
    assert ours == reference


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), np.array([1.0, np.nan]), np.float64(-np.inf)])
def test_non_finite_values_fail(tmp_path, bad):
    payload = {"fields": {"t": {"data": np.ones(3)}}, "quantities": {"max": bad}, "null": None}
    with pytest.raises(ValueError, match="not JSON compliant"):
        write_json_atomic(tmp_path / "results.json", payload)
    assert not (tmp_path / "results.json").exists()


def test_job_json_read_and_errors(tmp_path):
    (tmp_path / "job.json").write_text('{"config": {"a": NaN}, "mesh_data": {"vertices": [[0, 1.5, 2]]}}')
    job = read_job(tmp_path)  # json.loads took NaN literals; so does the faster path's fallback
    assert job["mesh_data"]["vertices"] == [[0, 1.5, 2]] and job["config"]["a"] != job["config"]["a"]
    (tmp_path / "job.json").write_text('{"config": ')
    with pytest.raises(Exception, match="job.json is not valid JSON: Expecting value"):
        read_job(tmp_path)
