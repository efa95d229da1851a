"""Request and reply models of the Fieldline API, generated from /api/docs — do not edit.

Regenerate with `python clients/python/scripts/generate_models.py <server or docs.json>`.
"""

# ruff: noqa: E501
from __future__ import annotations

from typing import Any, Literal, TypedDict, Union


class _ConvertRequestRequired(TypedDict):
    file: str


class ConvertRequest(_ConvertRequestRequired, total=False):
    force_tet: str
    units: Literal["mm", "cm", "m", "in", "um", "ft"]


class _ConvertResponseMeshesItemRequired(TypedDict):
    name: str
    vertices: list[tuple[float, float, float]]
    faces: list[list[int]]


class ConvertResponseMeshesItem(_ConvertResponseMeshesItemRequired, total=False):
    tetrahedra: list[list[int]]
    face_patches: list[int]


class ConvertResponseBoundingBox(TypedDict):
    min: tuple[float, float, float]
    max: tuple[float, float, float]


class _ConvertResponseRequired(TypedDict):
    units: Literal["mm", "cm", "m", "in", "um", "ft"]
    bounding_box: ConvertResponseBoundingBox
    upload_id: str


class ConvertResponse(_ConvertResponseRequired, total=False):
    vertices: list[tuple[float, float, float]]
    faces: list[list[int]]
    meshes: list[ConvertResponseMeshesItem]
    mesh_count: int
    format: Literal["multi-body"]
    face_patches: list[int]
    repairs: list[str]
    name: str
    source_format: Literal["step", "stl", "obj", "zip"]
    warnings: list[str]
    notes: list[str]


class _SubmitRequestMeshDataMeshesItemRequired(TypedDict):
    name: str
    vertices: list[tuple[float, float, float]]
    faces: list[list[int]]


class SubmitRequestMeshDataMeshesItem(_SubmitRequestMeshDataMeshesItemRequired, total=False):
    tetrahedra: list[list[int]]
    face_patches: list[int]


class SubmitRequestMeshData(TypedDict, total=False):
    vertices: list[tuple[float, float, float]]
    faces: list[list[int]]
    tetrahedra: list[list[int]]
    tetrahedron_regions: list[int]
    region_names: list[str]
    animation: Any
    meshes: list[SubmitRequestMeshDataMeshesItem]
    mesh_count: int
    format: str
    units: str
    face_patches: list[int]
    source_upload_id: str


class SubmitRequest(TypedDict):
    mesh_data: SubmitRequestMeshData
    config: dict[str, Any]


class _SubmitResponseRequired(TypedDict):
    status: Literal["queued", "error"]
    message: str


class SubmitResponse(_SubmitResponseRequired, total=False):
    job_id: str
    error: str


class _JobStatusResponseRequired(TypedDict):
    job_id: str
    status: Literal["queued", "running", "completed", "failed", "cancelled"]
    progress: float


class JobStatusResponse(_JobStatusResponseRequired, total=False):
    message: str
    error: str
    results: Any
    type: str
    success_count: float
    mesh_count: float
    problem_markers: str


class ResultsInfoResponseFilesItem(TypedDict):
    name: str
    bytes: float


class _ResultsInfoResponseContents0FieldsItemRequired(TypedDict):
    name: str
    label: str
    unit: Union[str, None]
    kind: Union[str, None]
    location: str
    complex: bool


class ResultsInfoResponseContents0FieldsItem(_ResultsInfoResponseContents0FieldsItemRequired, total=False):
    role: str


class ResultsInfoResponseContents0Grid0(TypedDict):
    resolution: Any


class ResultsInfoResponseContents0Animation0(TypedDict):
    frames: Union[float, None]
    axis: Union[str, None]
    unit: Union[str, None]
    fields: list[str]


class ResultsInfoResponseContents0(TypedDict):
    analysis: Union[str, None]
    frequency: Union[float, None]
    elements: Union[float, None]
    matrix_size: Union[float, None]
    vertices: int
    field_magnitudes: list[str]
    fields: list[ResultsInfoResponseContents0FieldsItem]
    quantities: list[str]
    complex_fields: bool
    grid: Union[ResultsInfoResponseContents0Grid0, None]
    animation: Union[ResultsInfoResponseContents0Animation0, None]


class ResultsInfoResponse(TypedDict):
    job_id: str
    status: Literal["queued", "running", "completed", "failed", "cancelled"]
    kind: Literal["meshing", "analysis"]
    analysis_type: str
    queue: str
    queued_at: str
    started_at: Union[str, None]
    finished_at: Union[str, None]
    attempts: int
    compute_seconds: Union[float, None]
    cost_tokens: Union[float, None]
    cost_hours: Union[float, None]
    saved: bool
    expires_at: Union[str, None]
    files: list[ResultsInfoResponseFilesItem]
    files_deleted_at: Union[str, None]
    contents: Union[ResultsInfoResponseContents0, None]
    error: Union[str, None]


class CancelResponse(TypedDict):
    job_id: str
    status: Literal["queued", "running", "completed", "failed", "cancelled", "cancelling"]
    message: str


class _HealthResponseEngineRequired(TypedDict):
    available: bool


class HealthResponseEngine(_HealthResponseEngineRequired, total=False):
    versions: dict[str, str]
    direct_solvers: list[str]
    error: str


class HealthResponseQueueQueuesItem(TypedDict):
    name: str
    queued: int
    running: int


class _HealthResponseQueueRequired(TypedDict):
    backend: str
    slots: int
    running: int
    queued: int
    workers: int


class HealthResponseQueue(_HealthResponseQueueRequired, total=False):
    queues: list[HealthResponseQueueQueuesItem]


class HealthResponse(TypedDict):
    status: Literal["ok", "degraded"]
    engine: HealthResponseEngine
    queue: HealthResponseQueue


class _MaterialsResponseMaterialsItemRequired(TypedDict):
    id: str
    label: str
    relativePermittivity: float
    relativePermeability: float
    conductivity: float
    lossTangent: float


class MaterialsResponseMaterialsItem(_MaterialsResponseMaterialsItemRequired, total=False):
    density: float
    youngsModulus: float
    poissonRatio: float
    yieldStrength: float
    thermalConductivity: float
    heatCapacity: float
    thermalExpansion: float
    emissivity: float
    bhCurve: str
    remanentFluxDensity: float


class MaterialsResponse(TypedDict):
    materials: list[MaterialsResponseMaterialsItem]


class SubscriptionInfoResponse(TypedDict):
    plan: str
    plan_name: str
    status: str
    current_period_end: Union[str, None]
    cancel_at_period_end: bool
    tokens_available: float
    tokens_used: float
    tokens_purchased: float
    tokens_remaining: float
    compute_hours_used: float
    compute_hours_limit: float
    hours_used: float
    hours_limit: float
    hours_remaining: float
    last_compute_time: Union[str, None]
    payment_provider: Literal["stripe", "local", "disabled"]


class _CreateApiTokenRequestRequired(TypedDict):
    name: str
    scope: Literal["read", "run"]


class CreateApiTokenRequest(_CreateApiTokenRequestRequired, total=False):
    expires_in_days: Union[int, None]


class CreateApiTokenResponse(TypedDict):
    id: str
    token: str
    name: str
    scope: Literal["read", "run"]
    created_at: str
    expires_at: Union[str, None]


class ApiTokenListResponseTokensItem(TypedDict):
    id: str
    name: str
    scope: Literal["read", "run"]
    created_at: str
    expires_at: Union[str, None]
    last_used_at: Union[str, None]


class ApiTokenListResponse(TypedDict):
    tokens: list[ApiTokenListResponseTokensItem]


class DownloadQuery(TypedDict, total=False):
    format: Literal["json", "touchstone", "csv"]


class _SaveJobResponseRequired(TypedDict):
    saved: bool
    message: str


class SaveJobResponse(_SaveJobResponseRequired, total=False):
    job_id: str
    upload_id: str


class ChainSourcesQuery(TypedDict):
    mesh_hash: str
    field: Literal["temperature", "stress"]


class ChainSourcesResponseJobsItem(TypedDict):
    job_id: str
    analysis_type: str
    finished_at: Union[str, None]
    frames: int
    max_temperature_K: Union[float, None]
    max_von_mises_Pa: Union[float, None]


class ChainSourcesResponse(TypedDict):
    jobs: list[ChainSourcesResponseJobsItem]


class RecentJobsResponseJobsItem(TypedDict):
    id: str
    kind: str
    analysis_type: str
    status: str
    message: Union[str, None]
    queued_at: str
    started_at: Union[str, None]
    finished_at: Union[str, None]
    compute_seconds: Union[float, None]
    cost_tokens: Union[float, None]
    cost_hours: Union[float, None]
    api_token_name: Union[str, None]


class RecentJobsResponse(TypedDict):
    jobs: list[RecentJobsResponseJobsItem]


class _ProblemMarkersResponseDiagnosticsItemRequired(TypedDict):
    kind: Literal["self_intersection", "overlapping_triangles", "non_manifold_edge", "open_boundary", "degenerate_triangle", "inconsistent_orientation", "overlapping_bodies", "cad_face", "mesher"]
    message: str
    faces: list[int]
    vertices: list[int]


class ProblemMarkersResponseDiagnosticsItem(_ProblemMarkersResponseDiagnosticsItemRequired, total=False):
    point: tuple[float, float, float]
    body: str


class _ProblemMarkersResponseRequired(TypedDict):
    format_version: int
    meshing_failed: Literal[True]
    vertices: list[tuple[float, float, float]]
    faces: list[list[int]]
    problem_vertices: list[int]
    problem_faces: list[int]
    diagnostics: list[ProblemMarkersResponseDiagnosticsItem]
    format: Literal["problem_markers"]


class ProblemMarkersResponse(_ProblemMarkersResponseRequired, total=False):
    error: str
    units: Literal["mm", "cm", "m", "in", "um", "ft"]
    repairs: list[str]


class TetraOutputQuery(TypedDict, total=False):
    job_id: str


class _TetraOutputResponseDiagnosticsItemRequired(TypedDict):
    kind: Literal["self_intersection", "overlapping_triangles", "non_manifold_edge", "open_boundary", "degenerate_triangle", "inconsistent_orientation", "overlapping_bodies", "cad_face", "mesher"]
    message: str
    faces: list[int]
    vertices: list[int]


class TetraOutputResponseDiagnosticsItem(_TetraOutputResponseDiagnosticsItemRequired, total=False):
    point: tuple[float, float, float]
    body: str


class _TetraOutputResponseRequired(TypedDict):
    format_version: int
    meshing_failed: Literal[True]
    vertices: list[tuple[float, float, float]]
    faces: list[list[int]]
    problem_vertices: list[int]
    problem_faces: list[int]
    diagnostics: list[TetraOutputResponseDiagnosticsItem]
    format: Literal["problem_markers"]


class TetraOutputResponse(_TetraOutputResponseRequired, total=False):
    error: str
    units: Literal["mm", "cm", "m", "in", "um", "ft"]
    repairs: list[str]


class _SaveUploadResponseRequired(TypedDict):
    saved: bool
    message: str


class SaveUploadResponse(_SaveUploadResponseRequired, total=False):
    job_id: str
    upload_id: str


class _CreateStudyRequestMeshDataMeshesItemRequired(TypedDict):
    name: str
    vertices: list[tuple[float, float, float]]
    faces: list[list[int]]


class CreateStudyRequestMeshDataMeshesItem(_CreateStudyRequestMeshDataMeshesItemRequired, total=False):
    tetrahedra: list[list[int]]
    face_patches: list[int]


class CreateStudyRequestMeshData(TypedDict, total=False):
    vertices: list[tuple[float, float, float]]
    faces: list[list[int]]
    tetrahedra: list[list[int]]
    tetrahedron_regions: list[int]
    region_names: list[str]
    animation: Any
    meshes: list[CreateStudyRequestMeshDataMeshesItem]
    mesh_count: int
    format: str
    units: str
    face_patches: list[int]
    source_upload_id: str


class CreateStudyRequestParametersItem0(TypedDict):
    path: str
    values: list[float]


CreateStudyRequestParametersItem1 = TypedDict("CreateStudyRequestParametersItem1", {"path": str, "from": float, "to": float, "steps": int, "scale": Literal["linear", "log"]}, total=False)


class _CreateStudyRequestConvergenceRequired(TypedDict):
    output: str
    tolerance: float
    startSize: float
    ratio: float


class CreateStudyRequestConvergence(_CreateStudyRequestConvergenceRequired, total=False):
    maxPoints: int


class _CreateStudyRequestRequired(TypedDict):
    name: str
    config: dict[str, Any]
    outputs: list[str]


class CreateStudyRequest(_CreateStudyRequestRequired, total=False):
    mesh_data: CreateStudyRequestMeshData
    upload_id: str
    parameters: list[Union[CreateStudyRequestParametersItem0, CreateStudyRequestParametersItem1]]
    combine: Literal["grid", "zip"]
    convergence: CreateStudyRequestConvergence


class CreateStudyResponsePointsItem(TypedDict):
    index: int
    parameters: dict[str, float]


class CreateStudyResponse(TypedDict):
    study_id: str
    points: list[CreateStudyResponsePointsItem]
    estimate_seconds: float
    message: str


class StudyListResponseStudiesItemParametersItem(TypedDict):
    path: str
    values: list[float]


class StudyListResponseStudiesItemProgress(TypedDict):
    total: int
    pending: int
    meshing: int
    queued: int
    running: int
    completed: int
    failed: int
    cancelled: int
    percent: float


class StudyListResponseStudiesItem(TypedDict):
    study_id: str
    name: str
    kind: Literal["sweep", "convergence"]
    analysis_type: str
    status: Literal["running", "completed", "cancelled"]
    created_at: str
    finished_at: Union[str, None]
    combine: Literal["grid", "zip"]
    outputs: list[str]
    parameters: list[StudyListResponseStudiesItemParametersItem]
    progress: StudyListResponseStudiesItemProgress
    estimate_seconds: float
    remeshes: bool


class StudyListResponse(TypedDict):
    studies: list[StudyListResponseStudiesItem]


class StudyResponseParametersItem(TypedDict):
    path: str
    values: list[float]


class StudyResponseProgress(TypedDict):
    total: int
    pending: int
    meshing: int
    queued: int
    running: int
    completed: int
    failed: int
    cancelled: int
    percent: float


class _StudyResponsePointsItemRequired(TypedDict):
    index: int
    parameters: dict[str, float]
    status: Literal["pending", "meshing", "queued", "running", "completed", "failed", "cancelled"]
    job_id: Union[str, None]
    mesh_job_id: Union[str, None]
    outputs: dict[str, Union[float, None]]
    error: Union[str, None]
    compute_seconds: Union[float, None]
    cost_tokens: Union[float, None]
    tetrahedra: Union[int, None]
    mesh_hash: Union[str, None]


class StudyResponsePointsItem(_StudyResponsePointsItemRequired, total=False):
    output_errors: dict[str, str]


class StudyResponseConvergence0(TypedDict):
    output: str
    tolerance: float
    converged: bool
    value: Union[float, None]
    extrapolated: Union[float, None]
    error_estimate: Union[float, None]
    observed_order: Union[float, None]
    safety_factor: Union[float, None]
    last_change: Union[float, None]
    sizes: list[float]
    message: str


class StudyResponse(TypedDict):
    study_id: str
    name: str
    kind: Literal["sweep", "convergence"]
    analysis_type: str
    status: Literal["running", "completed", "cancelled"]
    created_at: str
    finished_at: Union[str, None]
    combine: Literal["grid", "zip"]
    outputs: list[str]
    parameters: list[StudyResponseParametersItem]
    progress: StudyResponseProgress
    estimate_seconds: float
    remeshes: bool
    points: list[StudyResponsePointsItem]
    convergence: Union[StudyResponseConvergence0, None]


class StudyTableQuery(TypedDict, total=False):
    format: Literal["json", "csv"]


class StudyTableResponse(TypedDict):
    columns: list[str]
    rows: list[list[Union[str, float, None]]]


class CancelStudyResponse(TypedDict):
    study_id: str
    status: Literal["running", "completed", "cancelled"]
    cancelled: int
    stopping: int
    kept: int
    message: str
