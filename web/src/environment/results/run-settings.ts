import { numberText } from '../config/analysis-form.ts';
import type { RunSettingRow } from '../families/family-module.ts';
import { familyOfAnalysisType } from '../families/registry.ts';

export type { RunSettingRow };

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * What produced a result, at a glance (from results.json `analysis_config`, the backend config the engine
 * received): the analysis, the family's own lines (families/<id>/index.ts runSettings), mesh order and solver.
 */
export function runSettingsSummary(config: Record<string, unknown>): RunSettingRow[] {
  const type = config.analysisType;
  const family = familyOfAnalysisType(type);
  const rows: RunSettingRow[] = [
    ['Analysis', family ? family.analysisLabel(config) : typeof type === 'string' ? type : 'unknown'],
    ...(family?.runSettings(config) ?? []),
  ];
  const order = num(config.meshOrder) ?? 1;
  const curved = config.useCurvedMesh === true || config.useCurvedGeometry === true;
  rows.push(['Mesh order', `${order}${curved ? ', curved' : ''}`]);
  rows.push(['Solver', solverText(config)]);
  return rows;
}

function solverText(config: Record<string, unknown>): string {
  const solver = typeof config.linearSolver === 'string' ? config.linearSolver : 'auto';
  const tol = num(config.tolerance);
  return tol !== undefined && solver !== 'direct' ? `${solver}, tolerance ${numberText(tol)}` : solver;
}
