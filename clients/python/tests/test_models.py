"""The client's request and reply models cannot drift from the server's /api/docs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import httpx

from fieldline import api_models

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "generate_models.py"


def generator():
    spec = importlib.util.spec_from_file_location("generate_models", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate_models"] = module
    spec.loader.exec_module(module)
    return module


def test_models_are_generated_from_the_running_servers_api_docs(server: str) -> None:
    module = generator()
    doc = httpx.get(f"{server}/api/docs").json()
    expected = module.generate(doc)
    installed = Path(api_models.__file__).read_text()
    assert installed == expected, (
        "fieldline/api_models.py differs from what /api/docs generates: run "
        "`python clients/python/scripts/generate_models.py <server>` and commit the result"
    )
    # Spot checks that the models say what the server says.
    assert "class SubmitResponse" in installed
    assert 'status: Literal["queued", "error"]' in installed
    assert "class CreateApiTokenResponse" in installed
    assert "class StudyResponsePointsItem" in installed
    assert (
        'status: Literal["pending", "meshing", "queued", "running", "completed", "failed", "cancelled"]'
        in installed
    )


def test_every_operation_a_token_may_call_has_models_in_the_client(server: str) -> None:
    """A new bearer route in /api/docs without models in the client fails here (add it to OPERATIONS)."""
    doc = httpx.get(f"{server}/api/docs").json()
    bearer = {
        (method, path)
        for path, operations in doc["paths"].items()
        for method, op in operations.items()
        if any("bearerAuth" in s for s in op.get("security", []))
    }
    modelled = set(generator().OPERATIONS)
    print(f"/api/docs: {len(bearer)} operations take a token; models cover {len(bearer & modelled)}")
    assert bearer - modelled == set(), "bearer operations without client models"
    assert len(bearer) >= 20


def test_every_bearer_operation_is_documented_with_the_bearer_scheme(server: str) -> None:
    doc = httpx.get(f"{server}/api/docs").json()
    assert doc["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": doc["components"]["securitySchemes"]["bearerAuth"]["description"],
    }
    submit = doc["paths"]["/api/fea/submit"]["post"]
    assert {"bearerAuth": ["run"]} in submit["security"]
    status = doc["paths"]["/api/fea/status/{jobId}"]["get"]
    assert {"bearerAuth": ["read"]} in status["security"]
    tokens = doc["paths"]["/api/user/tokens"]["post"]
    assert all("bearerAuth" not in s for s in tokens.get("security", []))
