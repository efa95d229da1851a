import { metresPerUnit } from '@fieldline/contracts';
import type { DeformationSummary } from '../../results-format/index.ts';
import { formatSI } from '../results/quantities.ts';

const UNIT_NAMES: Record<string, string> = { um: 'µm' };

/** A length in the model's unit, 3 significant digits: "2.1 mm", "0.0834 in". */
function modelLength(metres: number, modelUnit: string): string {
  const value = metres / metresPerUnit(modelUnit);
  return `${+value.toPrecision(3)} ${UNIT_NAMES[modelUnit] ?? modelUnit}`;
}

/**
 * What the exaggeration slider does, in the model's unit (qa: "× 2.1e-3" read as a tiny factor on a visibly large
 * swing — for a mode shape the factor is metres per unit of a shape normalised to 1, not a magnification):
 * `drawn`, the largest displacement as drawn, beside the slider; `note`, what that is against the computed one.
 */
export function deformationText(d: DeformationSummary, scale: number): { drawn: string; note: string } {
  const drawnMetres = scale * d.largest;
  const drawn = `largest ${modelLength(drawnMetres, d.modelUnit)}`;
  if (d.unit !== 'm') {
    return {
      drawn,
      note: `The mode shape is drawn with its largest displacement at ${modelLength(drawnMetres, d.modelUnit)}: a mode's amplitude is arbitrary, only its shape and frequency are results.`,
    };
  }
  const factor =
    scale === 0 ? '0' : scale >= 10 ? Math.round(scale).toLocaleString('en-US') : `${+scale.toPrecision(3)}`;
  return {
    drawn,
    note: `Displacements drawn × ${factor}: the largest, ${formatSI(d.largest, 'm', 3)}, shows as ${modelLength(drawnMetres, d.modelUnit)}.`,
  };
}
