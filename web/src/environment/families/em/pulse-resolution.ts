import type { AnalysisForm } from '../../config/analysis-form.ts';
import { parseNumber } from '../../config/numbers.ts';
import { formatSI } from '../../results/quantities.ts';

/** Time steps per pulse width (τ) below which the pulse and its spectrum are not resolved. */
export const MIN_STEPS_PER_WIDTH = 5;
/** The engine's automatic width, endTime/15 (em/transient/waveforms.py AUTO_WIDTH_FRACTION). */
const AUTO_WIDTH_FRACTION = 1 / 15;

/**
 * A warning when the time step is too coarse for the Gaussian pulse (qa31: the defaults, Δt = 100 ps to 1 ns,
 * drive a 66.7 ps pulse — under one step per width — and the pulse's frequency response showed |S11| at
 * +9.9 dB). Null when the pulse is resolved, or for the ramped sinusoid.
 */
export function pulseResolutionWarning(
  form: Pick<AnalysisForm, 'timeStep' | 'endTime' | 'pulseShape' | 'pulseWidth'>,
): string | null {
  if (form.pulseShape === 'sinusoidal') return null;
  const dt = parseNumber(form.timeStep);
  const end = parseNumber(form.endTime);
  if (!(dt && dt > 0 && end && end > 0)) return null;
  const typed = parseNumber(form.pulseWidth) ?? 0;
  const width = typed > 0 ? typed : end * AUTO_WIDTH_FRACTION;
  if (width >= MIN_STEPS_PER_WIDTH * dt) return null;
  const steps = width / dt;
  return (
    `The pulse is ${formatSI(width, 's', 3)} wide${typed > 0 ? '' : ' (automatic: end time / 15)'} but the time ` +
    `step is ${formatSI(dt, 's', 3)}: ${steps < 1 ? 'under one step' : `${+steps.toFixed(1)} steps`} per width, ` +
    `too few to resolve it, so its fields and frequency response are wrong. Make the time step at most ` +
    `${formatSI(width / MIN_STEPS_PER_WIDTH, 's', 3)}${typed > 0 ? ' or the pulse wider' : ' or the end time longer'}.`
  );
}
