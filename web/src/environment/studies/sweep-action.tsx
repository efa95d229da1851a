import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { useServices } from '../state/EnvironmentContext.tsx';
import type { EnvironmentState } from '../state/environment-state.ts';
import { configPathsOf } from './sweep-probe.ts';

/**
 * The "Sweep" action beside a numeric input of the form (issue 37): it finds the config number the input
 * sets (sweep-probe.ts) and asks the Design study card to sweep it (state.studySweep). Inputs inside the
 * analysis form get it from this context; elsewhere there is none and no Sweep is shown.
 */
export type SweepAction = (field: { label: string; text: string; probe: (text: string) => void }) => void;

const SweepContext = createContext<SweepAction | null>(null);

export function useSweepAction(): SweepAction | null {
  return useContext(SweepContext);
}

/** `config`: the backend config of a state (the form's mapping; passed in so ui/ imports no form code). */
export function SweepActionProvider(props: {
  config: (state: EnvironmentState) => unknown;
  children: ReactNode;
}) {
  const { config } = props;
  const { store } = useServices();
  const action = useMemo<SweepAction>(
    () => (field) => {
      const state = store.get();
      const { paths } = configPathsOf((run) => store.dryRun(run), state, field.probe, field.text, config);
      const seq = (state.studySweep?.seq ?? 0) + 1;
      const [path, ...others] = paths;
      if (!path) {
        store.set({
          studySweep: {
            seq,
            path: null,
            note:
              field.text.trim() === ''
                ? `${field.label} is blank: give it a value to sweep from.`
                : `${field.label} sets no number of the configuration on its own yet (a row without faces is not sent); choose the setting in the list instead.`,
          },
        });
        return;
      }
      store.set({
        studySweep: {
          seq,
          path,
          note: others.length
            ? `${field.label} also sets ${others.join(', ')}; the study sweeps ${path} only.`
            : undefined,
        },
      });
    },
    [store, config],
  );
  return <SweepContext.Provider value={action}>{props.children}</SweepContext.Provider>;
}
