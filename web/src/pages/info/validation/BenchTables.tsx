import type { BenchSummary } from '@fieldline/contracts';
import { ScrollRegion } from '../../../components/ScrollRegion.tsx';

function verdict(ratio: number, better: 'lower' | 'higher'): string {
  const ahead = better === 'lower' ? ratio < 1 : ratio > 1;
  return ahead ? 'ahead' : 'behind';
}

/** The benches' side-by-side ratios, from their README tables (bench/<name>/summary.json). */
export function BenchTables({ benches }: { benches: BenchSummary[] }) {
  return (
    <>
      {benches.map((bench) => (
        <section key={bench.bench} className="bench-summary" aria-labelledby={`bench-${bench.bench}`}>
          <h3 id={`bench-${bench.bench}`}>{bench.title}</h3>
          <p className="muted">
            Against {bench.peer}. Measured {bench.date} on the {bench.machine}. Ratio: {bench.ratio_meaning}.
            Method and full tables: <code>{bench.readme}</code>.
          </p>
          <ScrollRegion label={`${bench.title}: ratios`}>
            <table className="validation-table">
              <thead>
                <tr>
                  <th scope="col">Case</th>
                  <th scope="col">Metric</th>
                  <th scope="col">Fieldline</th>
                  <th scope="col">Peer</th>
                  <th scope="col">Ratio</th>
                </tr>
              </thead>
              <tbody>
                {bench.rows.map((row) => (
                  <tr key={`${row.case}/${row.metric}`}>
                    <td>{row.case}</td>
                    <td>{row.metric}</td>
                    <td>{row.fieldline}</td>
                    <td>{row.peer}</td>
                    <td className={`ratio ${verdict(row.ratio, row.better)}`}>
                      {row.ratio}× <span className="sr-only">({verdict(row.ratio, row.better)})</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </section>
      ))}
    </>
  );
}
