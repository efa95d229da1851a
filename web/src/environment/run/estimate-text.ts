import { formatBytes, MEMORY_MODEL, type ResourceEstimate } from '@fieldline/contracts';

// "≈ 180 MB" kept on one line
const about = (bytes: number) => `≈\u00a0${formatBytes(bytes).replace(' ', '\u00a0')}`;
const unknownsText = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e4 ? `${Math.round(n / 1e3)} k` : String(n);

/**
 * "≈ 9 k unknowns, ≈ 45 MB for this model · direct solver": what this model needs leads (qa: "≈ 1.0 GB" for a
 * 9 k-unknown model read as the model's need; it was the libraries' reserved address space).
 */
export function estimateSummary(estimate: ResourceEstimate): string {
  const model = Math.max(0, estimate.memoryBytes - MEMORY_MODEL.baseBytes);
  // Adaptive refinement (docs/adaptive.md): memory and charge are estimated at the size the model may grow to.
  const unknowns =
    estimate.startUnknowns !== undefined
      ? `${unknownsText(estimate.startUnknowns)} unknowns, adaptive refinement may grow it to ${unknownsText(estimate.unknowns)}`
      : `${unknownsText(estimate.unknowns)} unknowns`;
  return `≈ ${unknowns}, ${about(model)} for this model · ${estimate.solver} solver`;
}

/** The reserve and the total the job's memory limit counts (the figure the server checks before queueing). */
export function estimateNote(estimate: ResourceEstimate): string {
  return (
    `The job counts ${about(estimate.memoryBytes)} against its memory limit: the solver's libraries reserve ` +
    `${about(MEMORY_MODEL.baseBytes)} of address space whatever the model (${about(MEMORY_MODEL.baseResidentBytes)} of it in use).`
  );
}
