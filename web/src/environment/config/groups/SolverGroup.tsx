import { TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { useForm } from '../use-form.ts';

export function SolverGroup() {
  const { form, set } = useForm();
  return (
    <Section title="Solver" testId="group-solver">
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
