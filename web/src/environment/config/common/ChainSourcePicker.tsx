import type { ChainSource } from '@fieldline/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useEnv } from '../../state/EnvironmentContext.tsx';
import { Select, TextField } from '../../ui/fields.tsx';
import { type ChainField, chainSourceLabel, fetchChainSources, meshHashOf } from './chain-sources.ts';

/**
 * Picks a completed job of this model (same mesh) whose results hold `field`, for a chained run's `fieldsFrom`
 * (docs/multiphysics.md §7): the list comes from GET /api/fea/chain-sources for the shown mesh's hash. A
 * transient source also takes a frame (its index or "last") when `onFrame` is given.
 */
export function ChainSourcePicker(props: {
  field: ChainField;
  label: string;
  value: string;
  onChange: (jobId: string) => void;
  frame?: string;
  onFrame?: (frame: string) => void;
  testId: string;
}) {
  const mesh = useEnv((s) => s.model?.mesh ?? null);
  const [sources, setSources] = useState<ChainSource[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { field, value, onChange } = props;

  const load = useCallback(async () => {
    setProblem(null);
    if (!mesh || (mesh.tetrahedra?.length ?? 0) === 0) {
      setSources([]);
      setProblem('Mesh the model first: a source must have run on this mesh.');
      return;
    }
    try {
      const hash = await meshHashOf(mesh);
      if (!hash) throw new Error('this browser cannot hash the mesh here (no Web Crypto)');
      setSources(await fetchChainSources(hash, field));
    } catch (err) {
      setSources([]);
      setProblem(`Could not list earlier runs: ${(err as Error).message}`);
    }
  }, [mesh, field]);

  useEffect(() => {
    void load();
  }, [load]);

  const list = sources ?? [];
  const chosen = list.find((s) => s.job_id === value);
  const options = [
    { value: '', label: sources === null ? 'Looking for runs…' : list.length ? 'Choose a run' : 'None yet' },
    ...list.map((s) => ({ value: s.job_id, label: chainSourceLabel(s, field) })),
    // a saved choice the list no longer holds (results deleted, another mesh) stays visible, marked
    ...(value && sources !== null && !chosen
      ? [{ value, label: `${value.slice(0, 8)} (not on this mesh)` }]
      : []),
  ];
  return (
    <div className="chain-source" data-testid={props.testId}>
      <div className="row-head">
        <Select<string>
          label={props.label}
          value={value}
          options={options}
          onChange={onChange}
          testId={`${props.testId}-job`}
        />
        <button type="button" className="icon" title="Refresh the list" onClick={() => void load()}>
          ↻
        </button>
      </div>
      {sources !== null && list.length === 0 && !problem && (
        <p className="small muted">
          No completed run of this model holds a {field} field yet: run one first.
        </p>
      )}
      {problem && <p className="small warn">{problem}</p>}
      {props.onFrame && chosen && chosen.frames > 0 && (
        <TextField
          label={`Frame (0–${chosen.frames - 1} or "last")`}
          inputMode="text"
          value={props.frame ?? 'last'}
          onChange={props.onFrame}
          testId={`${props.testId}-frame`}
        />
      )}
    </div>
  );
}
