import { ANALYSIS_DEFAULTS } from '@fieldline/contracts';
import type { AnalysisForm } from '../../config/analysis-form.ts';
import { parseFaceList } from '../../config/face-list.ts';
import { positiveOr } from '../../config/numbers.ts';
import { formatHz } from '../../results/quantities.ts';

/** Whether the engine solves the form's run as full-wave Maxwell in the frequency domain: the form forces it,
 * or a frequency above 0 meets wave ports, a PML or impedance walls, or an S-parameter sweep has wave ports
 * (the engine's em/routing.py, which decides; this mirrors it so the form shows what the run will use). */
export function isFullwaveForm(form: AnalysisForm): boolean {
  if (form.analysisType !== 'em' || form.transient) return false;
  const ports = form.useWavePorts && form.wavePorts.some((p) => parseFaceList(p.faces).length > 0);
  const sweep = form.calculateSParameters || form.extractSParameters;
  if (form.formulation === 'fullwave' || (sweep && ports)) return true;
  if (!(form.frequencyHz > 0)) return false;
  return ports || form.useRadialPML || form.impedance.some((row) => parseFaceList(row.faces).length > 0);
}

/** What a blank Adaptation frequency means for a full-wave run (null: the run does not adapt at a frequency):
 * the S-parameter band's highest, where the mesh is coarsest in wavelengths, else the run's one frequency
 * (engine em/adaptive_estimates.py `fullwave_pass_config`; docs/adaptive.md). */
export function emAdaptationFrequency(form: AnalysisForm): string | null {
  if (!isFullwaveForm(form)) return null;
  if (form.calculateSParameters || form.extractSParameters) {
    const top = positiveOr(form.sParamFreqMax, ANALYSIS_DEFAULTS.sParamFreqMax);
    return `the band's highest (${formatHz(top)})`;
  }
  return `the run's frequency (${formatHz(form.frequencyHz)})`;
}
