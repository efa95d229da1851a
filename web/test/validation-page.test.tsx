import type { ValidationReport, ValidationRow } from '@fieldline/contracts';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { BENCH_SUMMARIES, VALIDATION_REPORT } from '../src/pages/info/validation/data.ts';
import { formatError, formatValue } from '../src/pages/info/validation/format.ts';
import { SKETCHED_GEOMETRIES } from '../src/pages/info/validation/GeometrySketch.tsx';
import { ValidationContent } from '../src/pages/info/validation/ValidationContent.tsx';

/** /docs/validation renders the report the engine's tests wrote (docs/validation/report.json). */

afterEach(cleanup);

function row(overrides: Partial<ValidationRow>): ValidationRow {
  return {
    id: 'case',
    family: 'em',
    name: 'A case',
    description: 'What the case is.',
    geometry: 'coax',
    quantity: 'C',
    unit: 'F',
    source: 'closed form',
    reference: 1e-12,
    value: 1.001e-12,
    error: 0.001,
    error_kind: 'relative',
    tolerance: 0.01,
    passed: true,
    order: 2,
    unknowns: 12345,
    seconds: 1.5,
    convergence: null,
    expected_order: null,
    test: 'tests/test_x.py::test_y',
    ...overrides,
  };
}

const REPORT: ValidationReport = {
  generated_at: '2026-11-26T03:00:00+00:00',
  commit: 'abc123def456',
  machine: { cpus: 2, platform: 'Linux', python: '3.11.7' },
  missing: [],
  cases: [
    row({
      id: 'wr90',
      name: 'WR-90 ∠S21 at 10 GHz',
      error: 0.012,
      error_kind: '°',
      tolerance: 0.5,
      unit: '°',
    }),
    row({
      id: 'conv',
      name: 'h-refinement rate, order 2',
      error_kind: 'rate',
      tolerance: 0.35,
      error: 0.04,
      expected_order: 3,
      convergence: [
        { unknowns: 100, error: 1e-2 },
        { unknowns: 800, error: 1.3e-3 },
        { unknowns: 6400, error: 1.6e-4 },
      ],
    }),
    row({
      id: 'beam',
      family: 'structural',
      name: 'Cantilever tip',
      error: 0.02,
      passed: false,
      geometry: 'beam',
    }),
  ],
};

function show(report: ValidationReport) {
  render(
    <MemoryRouter>
      <ValidationContent report={report} benches={BENCH_SUMMARIES} />
    </MemoryRouter>,
  );
}

describe('validation report page', () => {
  it('lists a table per family with each case, its error and tolerance, and flags a failed case', () => {
    show(REPORT);
    expect(screen.getByRole('heading', { name: /Electromagnetics/ }).textContent).toContain('2 of 2');
    expect(screen.getByRole('heading', { name: /Structural/ }).textContent).toContain('0 of 1');
    const wr90 = screen.getByTestId('validation-WR-90 ∠S21 at 10 GHz');
    expect(within(wr90).getByTestId('validation-error').textContent).toBe('0.012 °');
    expect(wr90.textContent).toContain('0.5 °');
    expect(wr90.textContent).toContain('12,345');
    expect(screen.getByTestId('validation-Cantilever tip').textContent).toContain('over tolerance');
    expect(screen.getByTestId('validation-provenance').textContent).toContain('abc123def456');
    expect(screen.queryByRole('heading', { name: /Thermal/ })).toBeNull();
  });

  it('expands a case to its description, source and convergence plot', () => {
    show(REPORT);
    const button = screen.getByRole('button', { name: 'h-refinement rate, order 2' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('convergence-plot')).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const plot = screen.getByTestId('convergence-plot');
    expect(plot.querySelectorAll('circle')).toHaveLength(3);
    expect(plot.querySelector('line.expected')).not.toBeNull();
    expect(screen.getByText(/Reference: closed form/)).toBeTruthy();
  });

  it('says which cases a run failed to record', () => {
    show({ ...REPORT, missing: ['em-coax-z0-vi'] });
    expect(screen.getByRole('alert').textContent).toContain('em-coax-z0-vi');
  });

  it('shows the benches side by side with their peer and date', () => {
    show(REPORT);
    expect(BENCH_SUMMARIES.map((b) => b.bench)).toEqual(
      expect.arrayContaining(['em-fullwave', 'em-static', 'em-transient', 'structural']),
    );
    for (const bench of BENCH_SUMMARIES) {
      const heading = screen.getByRole('heading', { name: bench.title });
      expect(heading.parentElement?.textContent).toContain(bench.date);
      expect(bench.rows.every((r) => Number.isFinite(r.ratio) && r.ratio > 0)).toBe(true);
    }
  });
});

describe('the bundled report', () => {
  it('covers every family, passes, and has a sketch for every geometry', () => {
    const families = new Set(VALIDATION_REPORT.cases.map((c) => c.family));
    expect([...families].sort()).toEqual(['em', 'structural', 'thermal', 'vibration']);
    expect(VALIDATION_REPORT.missing).toEqual([]);
    expect(VALIDATION_REPORT.cases.every((c) => c.passed && c.error <= c.tolerance)).toBe(true);
    const unsketched = VALIDATION_REPORT.cases.filter((c) => !SKETCHED_GEOMETRIES.includes(c.geometry));
    expect(unsketched.map((c) => c.geometry)).toEqual([]);
  });
});

describe('formatting', () => {
  it('writes relative errors as percentages and absolute ones with their unit', () => {
    expect(formatError(0.0123, 'relative')).toBe('1.2 %');
    expect(formatError(6.2e-17, 'relative')).toBe('6.2e-17');
    expect(formatError(0.25, '°')).toBe('0.25 °');
    expect(formatValue(2.2253e-12, 'F')).toBe('2.225e-12 F');
    expect(formatValue(50.05, 'Ω')).toBe('50.05 Ω');
  });
});
