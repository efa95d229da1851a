import { z } from 'zod';
import { faceList, regionRef } from './common.ts';

/**
 * Thermal keys (docs/thermal.md): heat conduction, steady (`thermal`) or transient (`thermal-time`, or
 * `thermal` with the Transient switch). Temperatures in kelvin; `neumannConditions` (common.ts) is a heat
 * flux into the body in W/m²; faces without a condition are insulated.
 */
export const THERMAL_DEFAULTS = {
  initialTemperature: 293.15,
  thermalConductivity: 0.6,
  timeStep: 1,
  endTime: 100,
  ambientTemperature: 293.15,
} as const;

const kelvin = z.number().gt(0, 'temperatures are absolute (kelvin) and must be above 0 K');
const name = z.string().optional();

export const TemperatureCondition = z.object({ faces: faceList, temperature: kelvin, name });
export const ConvectionCondition = z.object({
  faces: faceList,
  /** W/(m²·K) */
  coefficient: z.number().positive(),
  ambientTemperature: kelvin,
  name,
});
export const RadiationCondition = z.object({
  faces: faceList,
  emissivity: z.number().gt(0).max(1),
  /** K; 0 K radiates to deep space */
  ambientTemperature: z.number().min(0),
  name,
});
/** A heat source in a body: its total power (W) or a power density (W/m³). */
export const HeatSource = z
  .object({ region: regionRef, power: z.number().optional(), powerDensity: z.number().optional(), name })
  .refine((s) => (s.power === undefined) !== (s.powerDensity === undefined), {
    message: 'give either power (W) or powerDensity (W/m³)',
  });

export const thermalKeys = {
  thermalConductivity: z.number().positive().default(THERMAL_DEFAULTS.thermalConductivity),
  initialTemperature: kelvin.default(THERMAL_DEFAULTS.initialTemperature),
  temperatureConditions: z.array(TemperatureCondition).default([]),
  convectionConditions: z.array(ConvectionCondition).default([]),
  radiationConditions: z.array(RadiationCondition).default([]),
  heatSources: z.array(HeatSource).default([]),
  /** solve the config's DC conduction first (voltage face groups, conductivities) and heat by σ|E|² */
  jouleHeating: z.boolean().default(false),
  /** solve the config's eddy-current setup first (coils, solid conductors, frequency) and heat by its losses */
  inductionHeating: z.boolean().default(false),
};

/** The engine's sentence for a steady model that no condition holds (engine thermal/analysis.py). */
export const THERMAL_UNDETERMINED =
  'The temperature of this steady model is undetermined: heat can leave nowhere. Add a fixed temperature, ' +
  'convection or radiation on some faces (faces without a condition are insulated).';

export interface ConfigIssue {
  path: (string | number)[];
  message: string;
}

type ThermalFace = { faces?: number[]; name?: string };
interface ThermalChecked {
  analysisType?: string;
  transient?: boolean;
  timeStep?: number;
  endTime?: number;
  temperatureConditions?: ThermalFace[];
  neumannConditions?: ThermalFace[];
  convectionConditions?: ThermalFace[];
  radiationConditions?: ThermalFace[];
}

/** Condition lists in the engine's order, with the names its messages give an unnamed condition. */
const FACE_CONDITIONS = [
  ['temperatureConditions', 'Temperature condition'],
  ['neumannConditions', 'Heat flux'],
  ['convectionConditions', 'Convection'],
  ['radiationConditions', 'Radiation'],
] as const;

/**
 * Checks across fields that a thermal run needs before it is queued (the engine repeats them): a time
 * step within the end time, each face under one condition at most, and a steady model that some
 * condition holds. Returns nothing for the other families.
 */
export function thermalConfigIssues(config: ThermalChecked): ConfigIssue[] {
  const type = config.analysisType;
  // thermal-structural's first step is a steady thermal run of the same keys.
  if (type !== 'thermal' && type !== 'thermal-time' && type !== 'thermal-structural') return [];
  const transient = type === 'thermal-time' || (type === 'thermal' && config.transient === true);
  const issues: ConfigIssue[] = [];
  const { timeStep: dt, endTime: end } = config;
  if (transient && dt !== undefined && end !== undefined && dt > end)
    issues.push({ path: ['timeStep'], message: `timeStep (${dt} s) is larger than endTime (${end} s).` });

  const owner = new Map<number, string>();
  for (const [key, noun] of FACE_CONDITIONS)
    (config[key] ?? []).forEach((c, k) => {
      const what = c.name || `${noun} ${k + 1}`;
      for (const face of c.faces ?? []) {
        const first = owner.get(face);
        if (first !== undefined && first !== what) {
          issues.push({
            path: [key, k, 'faces'],
            message: `Face ${face} is used by both ${first} and ${what}.`,
          });
          return;
        }
        owner.set(face, what);
      }
    });

  const held =
    (config.temperatureConditions?.length ?? 0) +
    (config.convectionConditions?.length ?? 0) +
    (config.radiationConditions?.length ?? 0);
  if (!transient && held === 0)
    issues.push({ path: ['temperatureConditions'], message: THERMAL_UNDETERMINED });
  return issues;
}

/** Design-study outputs of the thermal analyses (docs/thermal.md; see StudyOutputCatalogue). */
export const THERMAL_STUDY_OUTPUTS = {
  thermal: {
    quantities: ['max_temperature_K', 'min_temperature_K', 'source_power_W', 'energy_balance_error'],
  },
  'thermal-time': {
    quantities: [
      'max_temperature_K',
      'min_temperature_K',
      'source_power_W',
      'energy_in_J',
      'energy_stored_J',
      'energy_balance_error',
      'peak_temperature_K',
    ],
  },
} as const;
