/**
 * "Copy as curl": the same submission as the exported script, as shell commands (curl and jq) with a
 * $FIELDLINE_TOKEN placeholder: upload, meshing job, poll, analysis submit with the meshed volume, poll.
 */
import type { ScriptSetup } from './setup.ts';

/** A string as one single-quoted shell word. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const MESH_KEYS = 'vertices, faces, tetrahedra, tetrahedron_regions, region_names, face_patches, units';

export function curlScript(setup: ScriptSetup): string {
  const auth = '-H "Authorization: Bearer $FIELDLINE_TOKEN"';
  const json = "-H 'content-type: application/json'";
  const meshConfig = { ...setup.meshConfig, analysisType: 'tetra-only', meshingOnly: true };
  const unitsField = setup.unitsEditable ? ` -F units=${shellQuote(setup.units)}` : '';
  return [
    `# Fieldline: ${setup.fileName.replace(/\n/g, ' ')} (${String(setup.config.analysisType)}) as curl commands (docs/api.md).`,
    '# Needs curl and jq; FIELDLINE_URL and FIELDLINE_TOKEN (a "run" token from the dashboard) in the environment.',
    "# Face ids are the environment's mesh triangle ids: the server meshes the same file with the same options",
    '# the same way, so they name the same faces.',
    `MODEL=${shellQuote(setup.fileName)}`,
    'poll() { while :; do r=$(curl -s ' +
      auth +
      ' "$FIELDLINE_URL/api/fea/status/$1"); s=$(jq -r .status <<<"$r"); ' +
      'case $s in completed) echo "$r"; return 0;; failed|cancelled) echo "$r" >&2; return 1;; esac; sleep 2; done; }',
    `UPLOAD=$(curl -s ${auth} -F "file=@$MODEL" -F force_tet=true${unitsField} "$FIELDLINE_URL/api/convert-step" | jq -r .upload_id)`,
    `MESH_CONFIG=${shellQuote(JSON.stringify(meshConfig))}`,
    `MESH_JOB=$(jq -n --arg u "$UPLOAD" --argjson c "$MESH_CONFIG" '{mesh_data: {source_upload_id: $u}, config: $c}' | curl -s ${auth} ${json} --data-binary @- "$FIELDLINE_URL/api/fea/submit" | jq -r .job_id)`,
    'poll "$MESH_JOB" > mesh.json',
    `CONFIG=${shellQuote(JSON.stringify(setup.config))}`,
    `JOB=$(jq --argjson c "$CONFIG" '{mesh_data: (.results | {${MESH_KEYS}} | with_entries(select(.value != null))), config: $c}' mesh.json | curl -s ${auth} ${json} --data-binary @- "$FIELDLINE_URL/api/fea/submit" | jq -r .job_id)`,
    'poll "$JOB" > /dev/null',
    `curl -s ${auth} "$FIELDLINE_URL/api/fea/download/$JOB?format=json" > results.json`,
    "jq '(.results // .) | (.fea_results // .) | .quantities' results.json",
    '',
  ].join('\n');
}
