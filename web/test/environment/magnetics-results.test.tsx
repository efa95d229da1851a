import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { magneticsRunSettings } from '../../src/environment/families/em/magnetics/magnetics-run-settings.ts';
import { MagneticsPanel } from '../../src/environment/families/em/magnetics/results/MagneticsPanel.tsx';
import type { ProcessedResults } from '../../src/environment/results/process-results.ts';
import { extractQuantities, quantityText } from '../../src/environment/results/quantities.ts';

afterEach(cleanup);

const processed = (config: Record<string, unknown> | null) =>
  ({ analysisConfig: config }) as ProcessedResults;

describe('the magnetics results panel', () => {
  it('shows the inductance matrix with flux linkage and coupling, and forces with |F| and torque', () => {
    const result = {
      quantities: {
        inductance_matrix_H: {
          primary: { primary: 4e-3, secondary: 1e-3 },
          secondary: { primary: 1e-3, secondary: 1e-3 },
        },
        flux_linkage_Wb: { primary: 0.009, secondary: 0.003 },
        force_N: { armature: [3, 0, -4] },
        torque_Nm: { armature: 0.25 },
        energy_J: 0.0125,
      },
    };
    render(<MagneticsPanel result={result} results={processed(null)} />);
    const row = within(screen.getByTestId('inductance-row-primary'));
    expect(row.getByText('4 mH')).toBeTruthy();
    expect(row.getByText('1 mH')).toBeTruthy();
    expect(row.getByText('9 mWb')).toBeTruthy();
    // k = M / √(L1 L2) = 1e-3 / √(4e-6) = 0.5
    expect(screen.getByTestId('coupling').textContent).toContain('k = 0.5000');
    const force = within(screen.getByTestId('magnetic-force-armature'));
    expect(force.getByText('5 N')).toBeTruthy();
    expect(force.getByText('250 mN·m')).toBeTruthy();
  });

  it('shows eddy-current losses per body and each source’s R, X and L = X/ω at the run’s frequency', () => {
    const result = {
      quantities: {
        loss_W: { billet: 120, coil: 30 },
        total_loss_W: 150,
        resistance_ohm: { coil: 0.2 },
        reactance_ohm: { coil: 2 * Math.PI * 1000 * 1e-4 },
      },
    };
    render(<MagneticsPanel result={result} results={processed({ frequency: 1000 })} />);
    expect(within(screen.getByTestId('loss-billet')).getByText('120 W')).toBeTruthy();
    expect(screen.getByTestId('magnetic-losses').textContent).toContain('150 W');
    expect(screen.getByText('Impedance at 1 kHz')).toBeTruthy();
    const z = within(screen.getByTestId('impedance-coil'));
    expect(z.getByText('200 mΩ')).toBeTruthy();
    expect(z.getByText('100 µH')).toBeTruthy();
  });

  it('shows a magnetostatic run’s solid conductors with their DC resistance and I²R loss', () => {
    const result = {
      quantities: {
        inductance_matrix_H: { ring: { ring: 3.3e-8 } },
        loss_W: { ring: 0.0014 },
        total_loss_W: 0.0014,
        resistance_ohm: { ring: 3.44e-4 },
      },
      solver_info: { analysis: 'magnetostatic' },
    };
    render(<MagneticsPanel result={result} results={processed(null)} />);
    expect(screen.getByText('Losses (DC, I²R)')).toBeTruthy();
    expect(within(screen.getByTestId('dc-resistance-ring')).getByText('344 µΩ')).toBeTruthy();
    expect(screen.queryByTestId('magnetic-impedance')).toBeNull();
  });

  it('draws nothing for a result without magnetic quantities', () => {
    const { container } = render(
      <MagneticsPanel result={{ quantities: { capacitance_F: 1e-12 } }} results={processed(null)} />,
    );
    expect(container.innerHTML).toBe('');
  });

  it('gives flux linkage and torque their units in the quantities table', () => {
    const q = extractQuantities({
      quantities: { inductance_H: 1.2e-4, flux_linkage_Wb: { coil: 2.4e-4 }, torque_Nm: { rotor: 0.5 } },
    });
    expect(q.map((x) => [x.label, x.unit])).toEqual([
      ['Inductance', 'H'],
      ['Flux linkage', 'Wb'],
      ['Torque', 'N·m'],
    ]);
    expect(quantityText(q[0]!)).toBe('120 µH');
  });

  it('lists the coils and the added air in the run settings', () => {
    expect(
      magneticsRunSettings({
        analysisType: 'magnetostatic',
        coils: [{ name: 'winding', turns: 50, current: 2 }],
        airPadding: 3,
      }),
    ).toEqual([
      ['Coil', 'winding: 50 turns × 2 A'],
      ['Added air', '3 × model radius'],
    ]);
  });
});
