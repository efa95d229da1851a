"""Generates src/fieldline/api_models.py (TypedDicts) from the server's OpenAPI document (/api/docs).

    python scripts/generate_models.py http://localhost:8080      # or a saved docs JSON file

The client's tests regenerate the module from a running server and compare it with the committed file,
so a change to a request or reply the client uses fails the tests until this is run again. The
operations below are every one a token may call (a test checks /api/docs has no other bearer operation);
requests become <Name>Request, query strings <Name>Query, JSON replies <Name>Response. An analysis
`config` and a job's `results` are family-specific documents (docs/multiphysics.md) and stay
`dict[str, Any]`.
"""

from __future__ import annotations

import json
import keyword
import sys
import urllib.request
from pathlib import Path
from typing import Any


def _literal(value: Any) -> str:
    """A JSON value as Python source: strings as JSON writes them, true/false/null as True/False/None."""
    return json.dumps(value) if isinstance(value, str) else repr(value)


# (method, path) → model name prefix; request bodies become <Name>Request, 200 replies <Name>Response.
OPERATIONS: dict[tuple[str, str], str] = {
    ("post", "/api/convert-step"): "Convert",
    ("post", "/api/fea/submit"): "Submit",
    ("get", "/api/fea/status/{jobId}"): "JobStatus",
    ("get", "/api/fea/results/{jobId}/info"): "ResultsInfo",
    ("post", "/api/fea/cancel/{jobId}"): "Cancel",
    ("get", "/api/fea/health"): "Health",
    ("get", "/api/materials"): "Materials",
    ("get", "/api/user/subscription-info"): "SubscriptionInfo",
    ("post", "/api/user/tokens"): "CreateApiToken",
    ("get", "/api/user/tokens"): "ApiTokenList",
    ("get", "/api/fea/download/{jobId}"): "Download",
    ("post", "/api/fea/save/{jobId}"): "SaveJob",
    ("get", "/api/fea/chain-sources"): "ChainSources",
    ("get", "/api/user/recent-jobs"): "RecentJobs",
    ("get", "/api/fea/results/{jobId}/binary"): "ResultsBinary",
    ("get", "/api/fea/results/{jobId}/problem-markers"): "ProblemMarkers",
    ("get", "/results/tetra_output.json"): "TetraOutput",
    ("post", "/api/uploads/{id}/save"): "SaveUpload",
    # Design studies; the estimate takes and answers what creating one does.
    ("post", "/api/fea/studies"): "CreateStudy",
    ("post", "/api/fea/studies/estimate"): "CreateStudy",
    ("get", "/api/fea/studies"): "StudyList",
    ("get", "/api/fea/studies/{studyId}"): "Study",
    ("get", "/api/fea/studies/{studyId}/table"): "StudyTable",
    ("post", "/api/fea/studies/{studyId}/cancel"): "CancelStudy",
}
OPAQUE = {
    "SubmitRequest.config",
    "JobStatusResponse.results",
    "CreateStudyRequest.config",
    "DownloadResponse",
}
HEADER = '''"""Request and reply models of the Fieldline API, generated from /api/docs — do not edit.

Regenerate with `python clients/python/scripts/generate_models.py <server or docs.json>`.
"""

# ruff: noqa: E501
from __future__ import annotations

from typing import Any, Literal, TypedDict, Union
'''


class Generator:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.classes: list[str] = []
        self.names: set[str] = set()

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            node: Any = self.doc
            for part in schema["$ref"].lstrip("#/").split("/"):
                node = node[part]
            schema = node
        return schema

    def type_of(self, schema: Any, name: str) -> str:
        if not isinstance(schema, dict) or not schema:
            return "Any"
        schema = self.resolve(schema)
        if name in OPAQUE:
            return "dict[str, Any]"
        if "const" in schema:
            return f"Literal[{_literal(schema['const'])}]"
        if "enum" in schema:
            return f"Literal[{', '.join(_literal(v) for v in schema['enum'])}]"
        # An object's own properties make the model; anyOf beside them only constrains it (e.g. what a
        # submission must hold), which TypedDicts cannot say.
        for key in ("anyOf", "oneOf"):
            if key in schema and "properties" not in schema:
                options = [self.type_of(s, f"{name}{i}") for i, s in enumerate(schema[key])]
                unique = list(dict.fromkeys(options))
                return unique[0] if len(unique) == 1 else f"Union[{', '.join(unique)}]"
        if "allOf" in schema and len(schema["allOf"]) == 1:
            return self.type_of(schema["allOf"][0], name)
        kind = schema.get("type")
        if isinstance(kind, list):
            options = [self.type_of({**schema, "type": k}, name) for k in kind]
            return f"Union[{', '.join(dict.fromkeys(options))}]"
        if kind == "string":
            return "str"
        if kind == "integer":
            return "int"
        if kind == "number":
            return "float"
        if kind == "boolean":
            return "bool"
        if kind == "null":
            return "None"
        if kind == "array":
            if "prefixItems" in schema:
                items = [self.type_of(s, f"{name}Item{i}") for i, s in enumerate(schema["prefixItems"])]
                return f"tuple[{', '.join(items)}]"
            return f"list[{self.type_of(schema.get('items', {}), name + 'Item')}]"
        if kind == "object" or "properties" in schema:
            if schema.get("properties"):
                return self.typed_dict(schema, name)
            extra = schema.get("additionalProperties")
            value = self.type_of(extra, name + "Value") if isinstance(extra, dict) and extra else "Any"
            return f"dict[str, {value}]"
        return "Any"

    def typed_dict(self, schema: dict[str, Any], name: str) -> str:
        cls = "".join(part[:1].upper() + part[1:] for part in name.replace("_", ".").split("."))
        if cls in self.names:
            return cls
        self.names.add(cls)
        required = set(schema.get("required") or [])
        props = schema["properties"]
        fields = {key: self.type_of(sub, f"{name}.{key}") for key, sub in props.items()}
        ok = all(k.isidentifier() and not keyword.iskeyword(k) for k in fields)
        req = {k: v for k, v in fields.items() if k in required}
        opt = {k: v for k, v in fields.items() if k not in required}
        lines: list[str] = []
        if not ok:
            body = ", ".join(f"{json.dumps(k)}: {v}" for k, v in fields.items())
            lines.append(f'{cls} = TypedDict("{cls}", {{{body}}}, total=False)')
        elif not opt:
            lines.append(f"class {cls}(TypedDict):")
            lines += [f"    {k}: {v}" for k, v in req.items()]
        elif not req:
            lines.append(f"class {cls}(TypedDict, total=False):")
            lines += [f"    {k}: {v}" for k, v in opt.items()]
        else:
            lines.append(f"class _{cls}Required(TypedDict):")
            lines += [f"    {k}: {v}" for k, v in req.items()]
            lines.append("")
            lines.append("")
            lines.append(f"class {cls}(_{cls}Required, total=False):")
            lines += [f"    {k}: {v}" for k, v in opt.items()]
        self.classes.append("\n".join(lines))
        return cls

    def module(self) -> str:
        for (method, path), prefix in OPERATIONS.items():
            op = self.doc["paths"].get(path, {}).get(method)
            if op is None:
                raise SystemExit(f"/api/docs has no {method.upper()} {path}")
            query = [q for q in op.get("parameters") or [] if q.get("in") == "query"]
            if query:
                self.type_of(
                    {
                        "type": "object",
                        "properties": {q["name"]: q.get("schema", {}) for q in query},
                        "required": [q["name"] for q in query if q.get("required")],
                    },
                    f"{prefix}Query",
                )
            content = (op.get("requestBody") or {}).get("content") or {}
            request = content.get("application/json") or content.get("multipart/form-data")
            if request:
                self.type_of(request["schema"], f"{prefix}Request")
            responses = op.get("responses") or {}
            success = next((responses[c] for c in sorted(responses) if c.startswith("2")), {})
            reply = (success.get("content") or {}).get("application/json")
            if reply:
                self.type_of(reply["schema"], f"{prefix}Response")
        return HEADER + "".join(f"\n\n{c}\n" for c in self.classes)


def load(source: str) -> dict[str, Any]:
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(f"{source.rstrip('/')}/api/docs") as reply:  # noqa: S310 (a URL the user gives)
            return json.loads(reply.read())
    return json.loads(Path(source).read_text())


def generate(doc: dict[str, Any]) -> str:
    return Generator(doc).module()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    target = Path(__file__).resolve().parent.parent / "src" / "fieldline" / "api_models.py"
    target.write_text(generate(load(sys.argv[1])))
    print(f"wrote {target}")
