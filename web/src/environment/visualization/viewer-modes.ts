/** Spec 001 §9 viewer modes. */
export const RENDER_MODES = [
  { value: 0, label: 'Shell & Wireframe' },
  { value: 1, label: 'Wireframe' },
  { value: 2, label: 'X-Ray' },
  { value: 3, label: 'Solid' },
] as const;

export const SURFACE_FIELD_MODES = [
  { value: 0, label: 'Electric Field' },
  { value: 1, label: 'Magnetic Field' },
  { value: 2, label: 'Electric Magnitude' },
  { value: 3, label: 'Magnetic Magnitude' },
] as const;

export const COLOR_MAPS = [
  { value: 'viridis', label: 'Viridis' },
  { value: 'turbo', label: 'Turbo' },
  { value: 'coolwarm', label: 'Cool–warm' },
] as const;
