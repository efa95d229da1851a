import { describe, expect, it } from 'vitest';
import { createEnvironmentStore } from '../../src/environment/state/environment-state.ts';

/** qa31: "Submission failed: … The model has no supports" stayed in both panels after a support was added. */
describe('a refused run’s error goes with the first edit of the form', () => {
  const refused = {
    status: 'failed' as const,
    progress: 0,
    error: { title: 'Submission failed: no supports' },
  };

  it('clears a refusal (no job) when the form changes, not before', () => {
    const store = createEnvironmentStore();
    store.set({ analysis: refused });
    store.set({ pickTarget: null });
    expect(store.get().analysis.error?.title).toBe('Submission failed: no supports');
    store.set((s) => ({ form: { ...s.form, physics: 'structural' } }));
    expect(store.get().analysis).toMatchObject({ status: 'idle', error: undefined });
  });

  it('keeps a failed job’s error: it has a job to reopen', () => {
    const store = createEnvironmentStore();
    store.set({ analysis: { ...refused, jobId: 'j1', error: { title: 'Analysis failed' } } });
    store.set((s) => ({ form: { ...s.form, physics: 'structural' } }));
    expect(store.get().analysis).toMatchObject({ status: 'failed', jobId: 'j1' });
  });
});
