// The result charts: the SVG line charts and the panels drawn with them. Their own chunk, loaded when
// results are first shown (lazy-charts.tsx); the environment's start does not carry them.
export { HarmonicResponse } from './HarmonicResponse.tsx';
export { SParameterPlot } from './SParameterPlot.tsx';
export { ThermalHistory } from './ThermalHistory.tsx';
export { TimeDomain } from './TimeDomain.tsx';
