/**
 * The pre-run estimate (contracts/src/resources.ts) against the measured runs of calibrate.py
 * (out/runs.json): unknowns must match exactly; memory within a factor of 1.5 of the measured peak
 * address space. Usage: npx tsx bench/estimate/compare.ts
 */
import { readFileSync } from 'node:fs';
import { AnalysisConfigFields, estimateResources } from '@fieldline/contracts';
import { boxMesh } from '../../server/test/support/box-mesh.ts';

interface Run {
  kind: 'structural' | 'thermal' | 'fullwave' | 'thermal-cg';
  cells: [number, number, number];
  unknowns: number;
  peak_mb: number;
  address_space_mb: number;
  wall_s: number;
}

const CONFIGS: Record<Run['kind'], Record<string, unknown>> = {
  structural: { analysisType: 'structural', meshOrder: 2, linearSolver: 'direct' },
  thermal: { analysisType: 'thermal', meshOrder: 2, linearSolver: 'direct' },
  'thermal-cg': { analysisType: 'thermal', meshOrder: 2, linearSolver: 'cg-amg' },
  fullwave: {
    analysisType: 'em',
    frequency: 1e9,
    meshOrder: 2,
    useWavePorts: true,
    wavePorts: [{ portID: 1, faces: [1], mode: 'TE10' }],
  },
};

const runs: Run[] = JSON.parse(readFileSync(new URL('out/runs.json', import.meta.url), 'utf8'));
console.log(
  '| Case | Cells | Unknowns (engine) | Estimate | Address space measured | Estimate | Ratio | RSS | Wall |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
let worst = 1;
for (const run of runs) {
  const mesh = boxMesh([1, 0.2, 0.1], run.cells);
  const estimate = estimateResources(mesh, AnalysisConfigFields.parse(CONFIGS[run.kind]));
  const ratio = estimate.memoryBytes / 1e6 / run.address_space_mb;
  worst = Math.max(worst, ratio, 1 / ratio);
  console.log(
    `| ${run.kind} | ${run.cells.join('×')} | ${run.unknowns} | ${estimate.unknowns} | ${run.address_space_mb.toFixed(0)} MB | ` +
      `${(estimate.memoryBytes / 1e6).toFixed(0)} MB | ${ratio.toFixed(2)} | ${run.peak_mb.toFixed(0)} MB | ${run.wall_s} s |`,
  );
  if (estimate.unknowns !== run.unknowns) process.exitCode = 1;
}
console.log(`\nworst factor between estimate and measurement: ${worst.toFixed(2)} (goal ≤ 1.5)`);
