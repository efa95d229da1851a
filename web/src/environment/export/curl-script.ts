/**
 * "Copy as curl": the same submission as the exported script, as shell commands (curl and jq) with a
 * $FIELDLINE_TOKEN placeholder: upload, meshing job, poll, analysis submit with the meshed volume, poll.
 */
import { faceListsOf, type ScriptSetup } from './setup.ts';

/** A string as one single-quoted shell word. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const MESH_KEYS = 'vertices, faces, tetrahedra, tetrahedron_regions, region_names, face_patches, units';

/** `fixedSupports[0].faces` as a jq path array: ["fixedSupports",0,"faces"]. */
export function jqPath(path: string): (string | number)[] {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) =>
    m[2] !== undefined ? Number(m[2]) : (m[1] as string),
  );
}

/**
 * The jq filter (on the meshing job's status) that makes the submission: the face lists that are whole CAD
 * faces rebuilt from the mesh's face_patches (as the Python script's faces_of), the others by id.
 */
function submissionFilter(setup: ScriptSetup): string {
  const rebuilt = faceListsOf(setup).filter((l) => l.byPatch !== null);
  const mesh = `(.results | {${MESH_KEYS}} | with_entries(select(.value != null)))`;
  if (rebuilt.length === 0) return `{mesh_data: ${mesh}, config: $c}`;
  const facesOf =
    'def faces_of($cad): (.results.face_patches // []) | to_entries | map(select(.value as $v | any($cad[]; . == $v)) | .key + 1);';
  const setters = rebuilt
    .map((l) => ` | setpath(${JSON.stringify(jqPath(l.path))}; $m | faces_of(${JSON.stringify(l.byPatch)}))`)
    .join('');
  return `${facesOf} . as $m | {mesh_data: ${mesh}, config: ($c${setters})}`;
}

export function curlScript(setup: ScriptSetup): string {
  const auth = '-H "Authorization: Bearer $FIELDLINE_TOKEN"';
  const json = "-H 'content-type: application/json'";
  const meshConfig = { ...setup.meshConfig, analysisType: 'tetra-only', meshingOnly: true };
  const byId = faceListsOf(setup).some((l) => l.byPatch === null);
  const unitsField = setup.unitsEditable ? ` -F units=${shellQuote(setup.units)}` : '';
  return [
    `# Fieldline: ${setup.fileName.replace(/\n/g, ' ')} (${String(setup.config.analysisType)}) as curl commands (docs/api.md).`,
    '# Needs curl and jq; FIELDLINE_URL and FIELDLINE_TOKEN (a "run" token from the dashboard) in the environment.',
    "# Faces: the config names triangles of the environment's mesh (MESH_JOB) by id; these commands use that mesh while",
    '# it is on the server. FIELDLINE_REMESH=1 (or a mesh that is gone) uploads MODEL and meshes it again with the same',
    '# options: face lists that are whole CAD faces are rebuilt from its face_patches (jq faces_of); lists given by',
    '# id name the same faces only if the new mesh has the same triangles.',
    `MODEL=\${MODEL:-${shellQuote(setup.fileName)}}`,
    `MESH_JOB=${setup.meshJobId ? shellQuote(setup.meshJobId) : "''"}`,
    // Stops on failed/cancelled and on a reply that is no job status (an error: 401, 404 …), else waits.
    'poll() { while :; do r=$(curl -s ' +
      auth +
      ' "$FIELDLINE_URL/api/fea/status/$1"); s=$(jq -r .status <<<"$r"); ' +
      'case $s in completed) echo "$r"; return 0;; failed|cancelled|null) echo "$r" >&2; return 1;; esac; sleep 2; done; }',
    `if [ -z "\${FIELDLINE_REMESH:-}" ] && [ -n "$MESH_JOB" ] && curl -sf ${auth} "$FIELDLINE_URL/api/fea/status/$MESH_JOB" > mesh.json && jq -e '.results.tetrahedra | length > 0' mesh.json > /dev/null; then`,
    `  echo "mesh: the environment's, job $MESH_JOB" >&2`,
    'else',
    `  UPLOAD=$(curl -s ${auth} -F "file=@$MODEL" -F force_tet=true${unitsField} "$FIELDLINE_URL/api/convert-step" | jq -r .upload_id)`,
    `  MESH_CONFIG=${shellQuote(JSON.stringify(meshConfig))}`,
    `  MESH_JOB=$(jq -n --arg u "$UPLOAD" --argjson c "$MESH_CONFIG" '{mesh_data: {source_upload_id: $u}, config: $c}' | curl -s ${auth} ${json} --data-binary @- "$FIELDLINE_URL/api/fea/submit" | jq -r .job_id)`,
    '  poll "$MESH_JOB" > mesh.json',
    ...(byId && setup.surfaceTriangles !== undefined
      ? [
          `  [ "$(jq '.results.faces | length' mesh.json)" = ${setup.surfaceTriangles} ] || echo "warning: the new mesh does not have the environment's ${setup.surfaceTriangles} surface triangles: face ids given by number may name other faces" >&2`,
        ]
      : []),
    'fi',
    `CONFIG=${shellQuote(JSON.stringify(setup.config))}`,
    `JOB=$(jq --argjson c "$CONFIG" '${submissionFilter(setup)}' mesh.json | curl -s ${auth} ${json} --data-binary @- "$FIELDLINE_URL/api/fea/submit" | jq -r .job_id)`,
    'echo "job $JOB" >&2',
    'poll "$JOB" > /dev/null',
    `curl -s ${auth} "$FIELDLINE_URL/api/fea/download/$JOB?format=json" > results.json`,
    "jq '(.results // .) | (.fea_results // .) | .quantities' results.json",
    '',
  ].join('\n');
}
