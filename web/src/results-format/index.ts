// Results → viewer payloads, shared by the environment (parent) and the viewer.
export {
  AUTO_DEFORMATION_SHARE,
  autoDeformationScale,
  type CatalogueSummary,
  type DeformationSummary,
  type FieldSummary,
  hasSpecFieldModes,
  largestMagnitude,
  prettyUnit,
  summarizeCatalogue,
} from './field-summary.ts';
export { viewerMeshFromMeshData } from './mesh-data.ts';
export {
  type BinaryArrayEntry,
  decodeResultsBinary,
  RESULTS_BINARY_VERSION,
  ResultsBinaryError,
  type ResultsBinaryHeader,
  readResultsBinaryHeader,
} from './results-binary.ts';
export { ResultsJsonError, viewerPayloadFromResultsJson } from './results-json.ts';
export {
  loadMeshMessage,
  payloadTransferables,
  type ViewerPayload,
  vectorMagnitudes,
} from './viewer-payload.ts';
