import { type EnvironmentState, hasVolumeMesh } from './environment-state.ts';

export type ChipTone = 'idle' | 'busy' | 'ok' | 'bad';
export interface ChipState {
  text: string;
  tone: ChipTone;
  progress?: number;
}

/** The status chip (spec 001 §2 texts); the analysis wins over meshing, a progress percent while busy. */
export function statusChip(state: EnvironmentState): ChipState {
  const { analysis, meshing, model } = state;
  switch (analysis.status) {
    case 'submitting':
      return { text: 'Submitting Analysis...', tone: 'busy' };
    case 'running':
      return { text: 'Running FEA Analysis...', tone: 'busy', progress: analysis.progress };
    case 'completed':
      return { text: 'FEA: completed', tone: 'ok' };
    case 'failed':
      return { text: 'Analysis Failed', tone: 'bad' };
    default:
      break;
  }
  switch (meshing.status) {
    case 'submitting':
      return { text: 'Submitting for Meshing...', tone: 'busy' };
    case 'meshing':
      return { text: 'Generating Volume Mesh...', tone: 'busy', progress: meshing.progress };
    case 'failed':
      return { text: 'Meshing Failed', tone: 'bad' };
    case 'completed':
      return { text: 'Meshing: completed', tone: 'ok' };
    default:
      break;
  }
  if (hasVolumeMesh(model)) return { text: 'Ready for Analysis', tone: 'ok' };
  if (model) return { text: 'Surface mesh loaded', tone: 'idle' };
  return { text: 'No model loaded', tone: 'idle' };
}
