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

/** The symmetric positive definite families (structural, thermal, vibration) have no use for GMRES: the engine
 * runs CG + BDDC when asked for it, so that is what their list shows. */
export const SPD_SOLVERS: readonly LinearSolver[] = LINEAR_SOLVERS.filter((v) => v !== 'gmres-bddc');

export function SolverGroup({ solvers = LINEAR_SOLVERS }: { solvers?: readonly LinearSolver[] }) {
  const { form, set } = useForm();
  const value = solvers.includes(form.linearSolver) ? form.linearSolver : 'cg-bddc';
  return (
    <Section title="Solver" testId="group-solver">
      <Select<LinearSolver>
        label="Linear solver"
        value={value}
        options={solvers.map((v) => ({ value: v, label: SOLVER_LABELS[v] }))}
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
