import { type ComponentType, type ReactNode, useEffect, useState } from 'react';

/** One lazily fetched chart panel: the component once loaded, and how to fetch it (once). */
interface LazyEntry<P> {
  chart: ComponentType<P> | null;
  fetch: () => Promise<ComponentType<P>>;
}

/** Every lazy panel's loader, so the charts can be fetched together (loadCharts). */
const loaders: (() => Promise<unknown>)[] = [];

/** Loads every chart panel made so far (once each). Tests may await it to render results at once. */
export async function loadCharts(): Promise<void> {
  await Promise.all(loaders.map((load) => load()));
}

function LazyChart<P extends object>({ entry, props }: { entry: LazyEntry<P>; props: P }) {
  const [, setLoaded] = useState(entry.chart !== null);
  useEffect(() => {
    if (entry.chart) return;
    let live = true;
    void entry.fetch().then(() => {
      if (live) setLoaded(true);
    });
    return () => {
      live = false;
    };
  }, [entry]);
  if (!entry.chart) return null;
  const Chart = entry.chart;
  return <Chart {...props} />;
}

/**
 * A chart panel fetched in its own chunk when results are first shown: the SVG line charts stay out of the
 * environment's start (e2e/tests/bundle-budget.e2e.ts). A family's index names its chart panels through this,
 * `lazyChart(() => import('./results/ThermalHistory.tsx').then((m) => m.ThermalHistory))`. Nothing is drawn
 * until it has loaded (a moment, once): most results have no chart of a given kind, and a placeholder would
 * show for panels that draw nothing.
 */
export function lazyChart<P extends object>(load: () => Promise<ComponentType<P>>): (props: P) => ReactNode {
  let loading: Promise<ComponentType<P>> | null = null;
  const entry: LazyEntry<P> = {
    chart: null,
    fetch: () => {
      loading ??= load().then((loaded) => {
        entry.chart = loaded;
        return loaded;
      });
      return loading;
    },
  };
  loaders.push(entry.fetch);
  return (props: P) => <LazyChart entry={entry} props={props} />;
}
