import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlanCatalog } from '../../src/billing/plan-catalog.ts';
import { loadConfig } from '../../src/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'fieldline-plans-'));

describe('plan catalog', () => {
  it('ships the token and $5 single plans with every field of spec 000 §3', () => {
    const catalog = PlanCatalog.fromFile(loadConfig({}).compute.plansFile);
    const plans = catalog.all();
    expect(plans.token).toMatchObject({
      billing_cycle: 'pay_as_you_go',
      features: { priority_queue: false },
    });
    expect(plans.single).toMatchObject({
      price_monthly: 5,
      billing_cycle: 'monthly',
      features: { priority_queue: false, support_level: 'email' },
    });
    for (const plan of Object.values(plans)) {
      expect(Object.keys(plan).sort()).toEqual(
        [
          'billing_cycle',
          'compute_hours_per_month',
          'description',
          'features',
          'name',
          'price_monthly',
          'stripe_price_id',
          'token_cost',
        ].sort(),
      );
      expect(Object.keys(plan.features).sort()).toEqual(
        ['concurrent_simulations', 'max_file_size_mb', 'priority_queue', 'support_level'].sort(),
      );
    }
    expect(PlanCatalog.queueFor(plans.single as never)).toBe('standard');
  });

  it('lets an operator add a plan in YAML without code changes', () => {
    const file = join(dir, 'plans.yaml');
    writeFileSync(
      file,
      `token:
  name: Tokens
  description: pay as you go
  price_monthly: 0
  billing_cycle: pay_as_you_go
  compute_hours_per_month: 0
  token_cost: 1
  stripe_price_id: null
  features: {priority_queue: false, support_level: community, max_file_size_mb: 50, concurrent_simulations: 1}
team:
  name: Team
  description: for teams
  price_monthly: 99
  billing_cycle: monthly
  compute_hours_per_month: 200
  token_cost: 0.8
  stripe_price_id: price_team
  features: {priority_queue: true, support_level: priority, max_file_size_mb: 2000, concurrent_simulations: 8}
`,
    );
    const catalog = PlanCatalog.fromFile(file);
    expect(catalog.get('team')?.features.concurrent_simulations).toBe(8);
    expect(PlanCatalog.queueFor(catalog.get('team') as never)).toBe('priority');
    expect(catalog.resolve('removed-plan').id).toBe('token');
  });

  it('refuses a plans file with a missing field, naming the plan and field', () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify({ token: { name: 'x' } }));
    expect(() => PlanCatalog.fromFile(file)).toThrow(/broken\.json: token\.description/);
    writeFileSync(file, JSON.stringify({}));
    expect(() => PlanCatalog.fromFile(file)).toThrow(/'token' plan is required/);
  });
});
