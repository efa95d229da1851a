import { LINEAR_SOLVERS } from '@fieldline/contracts';
import { Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import type { LinearSolver } from '../analysis-form.ts';
import { useForm } from '../use-form.ts';

const SOLVER_LABELS: Record<LinearSolver, string> = {
  auto: 'Automatic (direct for small models)',
  direct: 'Direct (sparse factorisation)',
  'cg-bddc': 'CG + BDDC',
  'cg-amg': 'CG + AMG',
  'gmres-bddc': 'GMRES + BDDC (full-wave)',
};

export function SolverGroup() {
  const { form, set } = useForm();
  return (
    <Section title="Solver" testId="group-solver">
      <Select<LinearSolver>
        label="Linear solver"
        value={form.linearSolver}
        options={LINEAR_SOLVERS.map((v) => ({ value: v, label: SOLVER_LABELS[v] }))}
        onChange={(v) => set({ linearSolver: v })}
        testId="linear-solver"
      />
      <div className="row2">
        <TextField label="Tolerance" value={form.tolerance} onChange={(v) => set({ tolerance: v })} />
        <TextField
          label="Max iterations"
          inputMode="numeric"
          value={form.maxIterations}
          onChange={(v) => set({ maxIterations: v })}
        />
      </div>
    </Section>
  );
}
