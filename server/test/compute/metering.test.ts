import { describe, expect, it } from 'vitest';
import { isCharged, priceRun } from '../../src/billing/metering.ts';
import type { Plan } from '../../src/billing/plan-catalog.ts';

const features = {
  priority_queue: false,
  support_level: 'email',
  max_file_size_mb: 10,
  concurrent_simulations: 1,
};
const tokenPlan: Plan = {
  name: 'T',
  description: '',
  price_monthly: 0,
  billing_cycle: 'pay_as_you_go',
  compute_hours_per_month: 0,
  token_cost: 1,
  stripe_price_id: null,
  features,
};
const monthly: Plan = { ...tokenPlan, billing_cycle: 'monthly', compute_hours_per_month: 10, token_cost: 2 };

describe('pricing a run', () => {
  it('charges the token plan by the compute-hour, at the configured tokens per hour', () => {
    expect(priceRun(tokenPlan, 1800, 0, 1)).toEqual({ tokens: 0.5, hours: 0 });
    expect(priceRun(tokenPlan, 3600, 0, 3)).toEqual({ tokens: 3, hours: 0 });
  });

  it('charges subscriptions in hours from the allowance, then overage tokens at token_cost', () => {
    expect(priceRun(monthly, 3600, 2, 1)).toEqual({ tokens: 0, hours: 1 });
    // 9.5 h used: half an hour left in the allowance, the other half hour is overage at 2 tokens/h.
    expect(priceRun(monthly, 3600, 9.5, 1)).toEqual({ tokens: 1, hours: 0.5 });
    expect(priceRun(monthly, 3600, 12, 1)).toEqual({ tokens: 2, hours: 0 });
  });

  it('charges completed and cancelled analyses and the user’s own failures, never platform failures or meshing', () => {
    expect(isCharged('analysis', 'completed', null)).toBe(true);
    expect(isCharged('analysis', 'cancelled', 'cancelled')).toBe(true);
    expect(isCharged('analysis', 'failed', 'time_limit')).toBe(true);
    expect(isCharged('analysis', 'failed', 'memory_limit')).toBe(true);
    expect(isCharged('analysis', 'failed', 'engine_crashed')).toBe(false);
    expect(isCharged('analysis', 'failed', 'engine_unavailable')).toBe(false);
    expect(isCharged('analysis', 'failed', 'worker_lost')).toBe(false);
    expect(isCharged('analysis', 'failed', 'storage_error')).toBe(false);
    expect(isCharged('analysis', 'failed', 'disk_full')).toBe(false);
    expect(isCharged('meshing', 'completed', null)).toBe(false);
  });
});
