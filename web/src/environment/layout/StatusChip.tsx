import { useEnv } from '../state/EnvironmentContext.tsx';
import { statusChip } from '../state/status-chip.ts';

export function StatusChip() {
  const chip = useEnv(statusChip);
  return (
    <span className={`env-chip ${chip.tone}`} data-testid="status-chip" role="status">
      {chip.tone === 'busy' && <span className="env-spinner" aria-hidden />}
      {chip.text}
      {chip.progress !== undefined && <span className="chip-progress"> {Math.round(chip.progress)}%</span>}
    </span>
  );
}
