import type { AnalysisConfigInput } from '@fieldline/contracts';
import type { AnalysisForm } from '../../config/analysis-form.ts';
import type { ConfigReader } from '../../config/common/config-reader.ts';
import type { BodyRef } from '../../config/to-backend-config.ts';
import { magneticSourcesFromBackend } from '../em/magnetics/magnetics-from-backend.ts';
import { magneticsToBackend } from '../em/magnetics/magnetics-to-backend.ts';

/**
 * Induction heating (docs/magnetics.md §8): the eddy-current keys a thermal run solves first — the EM form's
 * coils (with picked terminals), solid conductors, flux boundaries, added air and frequency. The bodies'
 * conductivity and permeability travel in the thermal form's `bodyMaterials` (heatingProperties), so one
 * material table holds every property the two solves read.
 */
export function inductionToBackend(
  form: AnalysisForm,
  bodies: readonly BodyRef[],
): Partial<AnalysisConfigInput> {
  const eddy = magneticsToBackend(form, { bodies, analysisType: 'eddy-current' });
  return {
    frequency: eddy.frequency,
    coils: eddy.coils,
    solidConductors: eddy.solidConductors,
    magneticBoundaries: eddy.magneticBoundaries,
    ...(eddy.airPadding !== undefined ? { airPadding: eddy.airPadding } : {}),
  };
}

/** The EM form's sources and frequency back from a saved induction-heated thermal config. */
export function inductionFromBackend(reader: ConfigReader): Partial<AnalysisForm> {
  const m = magneticSourcesFromBackend(reader, true);
  return {
    coils: m.coils,
    coilTerminals: m.coilTerminals,
    solidConductors: m.solidConductors,
    conductorTerminals: m.conductorTerminals,
    magneticBoundaries: m.magneticBoundaries,
    airPadding: m.airPadding,
    eddyFrequencyHz: m.eddyFrequencyHz,
  };
}
