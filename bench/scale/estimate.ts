/**
 * The estimate shown before Run (contracts/src/resources.ts) against the peak address space measured on
 * bench/scale's rungs (issue 19: within a factor of 1.5). Reads scale.py's output (default
 * bench/scale/out/scale.json; also its JSON-lines logs) and prints one row per measured solve; exits 1
 * when a ratio is outside [1/1.5, 1.5]. scale.py runs it after its rungs.
 * Usage: npx tsx bench/scale/estimate.ts [scale.json | rows.log ...]
 */
import { readFileSync } from 'node:fs';
import { AnalysisConfig, estimateForUnknowns } from '@fieldline/contracts';

interface Row {
  unknowns?: number;
  method?: string;
  vm_peak_gb?: number;
  vm_hwm_gb?: number;
  rung_m?: number;
  maxh?: number;
  threads?: number;
}

/** A WR-90 section's job as the environment sends it: order 2, two TE10 ports, the bench's solver. */
function configFor(method: string): AnalysisConfig {
  return AnalysisConfig.parse({
    analysisType: 'em',
    frequency: 10e9,
    meshOrder: 2,
    useWavePorts: true,
    wavePorts: [
      { portID: 1, faces: [1], mode: 'TE10' },
      { portID: 2, faces: [2], mode: 'TE10' },
    ],
    linearSolver: method === 'direct' ? 'direct' : 'gmres-bddc',
  });
}

function rowsOf(path: string): Row[] {
  const text = readFileSync(path, 'utf8');
  try {
    const parsed = JSON.parse(text) as { rows?: Row[] } | Row[];
    if (Array.isArray(parsed)) return parsed;
    return 'rows' in parsed && parsed.rows ? parsed.rows : [parsed as Row]; // scale.json, or a one-row log
  } catch {
    // a log: one JSON row per line among other output
    return text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Row);
  }
}

const files = process.argv.slice(2);
const rows = (files.length ? files : [new URL('out/scale.json', import.meta.url).pathname]).flatMap(rowsOf);
const GOAL = 1.5;
let worst = 1;
console.log(
  '| rung | unknowns | solver | threads | estimate GB | VmPeak GB | estimate / VmPeak | VmHWM GB |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  if (!row.unknowns || !row.vm_peak_gb || !row.method) continue;
  const estimate = estimateForUnknowns(row.unknowns, configFor(row.method));
  const gb = estimate.memoryBytes / 1e9;
  const ratio = gb / row.vm_peak_gb;
  worst = Math.max(worst, ratio, 1 / ratio);
  console.log(
    `| ${row.rung_m ? `${row.rung_m} M` : `maxh ${(row.maxh ?? 0) * 1e3} mm`} | ${row.unknowns} | ${estimate.solver} | ${row.threads ?? '—'} | ${gb.toFixed(2)} | ` +
      `${row.vm_peak_gb.toFixed(2)} | ${ratio.toFixed(2)} | ${row.vm_hwm_gb?.toFixed(2) ?? '—'} |`,
  );
}
console.log(
  `worst factor between the estimate and the measured VmPeak: ${worst.toFixed(2)} (goal ≤ ${GOAL})`,
);
if (worst > GOAL) process.exitCode = 1;
