import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import type { AnalysisForm } from './analysis-form.ts';

type RowLists = {
  [K in keyof AnalysisForm]: AnalysisForm[K] extends Array<{ key: string }> ? K : never;
}[keyof AnalysisForm];
type RowOf<L extends RowLists> = AnalysisForm[L][number];

/** Form state and its updaters (the form lives in the environment store so it can be saved). */
export function useForm() {
  const { store, bridge } = useServices();
  const form = useEnv((s) => s.form);
  const set = (patch: Partial<AnalysisForm>) => store.set((s) => ({ form: { ...s.form, ...patch } }));
  const setRow = <L extends RowLists>(list: L, key: string, patch: Partial<RowOf<L>>) =>
    store.set((s) => ({
      form: {
        ...s.form,
        [list]: (s.form[list] as RowOf<L>[]).map((r) => (r.key === key ? { ...r, ...patch } : r)),
      },
    }));
  const addRow = <L extends RowLists>(list: L, row: RowOf<L>) =>
    store.set((s) => ({ form: { ...s.form, [list]: [...(s.form[list] as RowOf<L>[]), row] } }));
  const removeRow = <L extends RowLists>(list: L, key: string) => {
    const wasPicking = store.get().pickTarget?.key === key;
    store.set((s) => ({
      form: { ...s.form, [list]: (s.form[list] as RowOf<L>[]).filter((r) => r.key !== key) },
      pickTarget: wasPicking ? null : s.pickTarget,
    }));
    if (wasPicking) bridge.call('setFacePicking', false);
  };
  return { form, set, setRow, addRow, removeRow };
}
