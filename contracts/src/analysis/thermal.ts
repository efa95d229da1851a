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
};
