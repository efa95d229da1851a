import type { BenchSummary, ValidationReport } from '@fieldline/contracts';
// Produced by `npm test` (the engine's validation tests) and by the benches; bundled at build time.
import report from '../../../../../docs/validation/report.json';

const benchModules = import.meta.glob<BenchSummary>('../../../../../bench/*/summary.json', {
  eager: true,
  import: 'default',
});

export const VALIDATION_REPORT = report as ValidationReport;

export const BENCH_SUMMARIES: BenchSummary[] = Object.values(benchModules).sort((a, b) =>
  a.bench.localeCompare(b.bench),
);
