import { type ComponentType, useEffect, useState } from 'react';

type Charts = typeof import('./charts.ts');

let charts: Charts | null = null;
let loading: Promise<Charts> | null = null;

/** Loads the charts chunk (once). Called when results are shown; tests may await it to render at once. */
export function loadCharts(): Promise<Charts> {
  loading ??= import('./charts.ts').then((module) => {
    charts = module;
    return module;
  });
  return loading;
}

/** The charts module once loaded; until then null, and the caller re-renders when it arrives. */
function useCharts(): Charts | null {
  const [, setLoaded] = useState(charts !== null);
  useEffect(() => {
    if (charts) return;
    let live = true;
    void loadCharts().then(() => {
      if (live) setLoaded(true);
    });
    return () => {
      live = false;
    };
  }, []);
  return charts;
}

/**
 * A chart panel drawn from the charts chunk. Nothing until it has loaded (a moment, once): most
 * results have no chart of a given kind, and a placeholder would show for panels that draw nothing.
 */
function lazyChart<P extends object>(pick: (module: Charts) => ComponentType<P>) {
  return (props: P) => {
    const loaded = useCharts();
    if (!loaded) return null;
    const Chart = pick(loaded);
    return <Chart {...props} />;
  };
}

export const HarmonicResponse = lazyChart((c) => c.HarmonicResponse);
export const SParameterPlot = lazyChart((c) => c.SParameterPlot);
export const ThermalHistory = lazyChart((c) => c.ThermalHistory);
export const TimeDomain = lazyChart((c) => c.TimeDomain);
