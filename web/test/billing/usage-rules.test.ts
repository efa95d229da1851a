import { describe, expect, it } from 'vitest';
import {
  deriveUsage,
  formatHours,
  formatPercent,
  formatTokenBalance,
  formatTokens,
  quickActions,
  usageCounts,
  usageLevel,
  usagePercent,
  usageTiles,
  usageWarning,
} from '../../src/billing/usage-rules.ts';

const tokenInfo = (used: number, purchased: number) =>
  deriveUsage({
    plan: 'token',
    tokens_used: used,
    tokens_purchased: purchased,
    tokens_available: Math.max(0, purchased - used),
  });
const hourInfo = (used: number, limit: number, plan = 'single') =>
  deriveUsage({
    plan,
    compute_hours_used: used,
    compute_hours_limit: limit,
    current_period_end: '2030-01-01',
  });

describe('deriveUsage (spec 000 §3 derived usage info)', () => {
  it('reads both the compute_hours_* and the hours_* fields', () => {
    expect(deriveUsage({ plan: 'single', compute_hours_used: 2, compute_hours_limit: 10 })).toMatchObject({
      hours_used: 2,
      hours_limit: 10,
      hours_remaining: 8,
    });
    expect(deriveUsage({ plan: 'single', hours_used: 3, hours_limit: 10 })).toMatchObject({
      hours_used: 3,
      hours_limit: 10,
      hours_remaining: 7,
    });
  });

  it('never reports a remaining value below 0', () => {
    expect(hourInfo(12, 10).hours_remaining).toBe(0);
    expect(deriveUsage({ plan: 'token', tokens_used: 9, tokens_purchased: 5 }).tokens_remaining).toBe(0);
    expect(deriveUsage({ plan: 'token', tokens_available: -3 }).tokens_remaining).toBe(0);
  });

  it('defaults a missing plan to token and keeps absent dates null', () => {
    const u = deriveUsage({});
    expect(u.plan).toBe('token');
    expect(u.current_period_end).toBeNull();
    expect(u.last_compute_time).toBeNull();
  });
});

describe('percent and thresholds (spec 000 §9)', () => {
  it('uses tokens for the token plan and hours for the others', () => {
    expect(usagePercent(tokenInfo(3, 12))).toBeCloseTo(25);
    expect(usagePercent(hourInfo(2.5, 10))).toBeCloseTo(25);
  });

  it('formats one decimal and caps the display at 100', () => {
    expect(formatPercent(usagePercent(tokenInfo(1, 3)))).toBe('33.3%');
    expect(formatPercent(usagePercent(hourInfo(15, 10)))).toBe('100.0%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(74.96)).toBe('75.0%');
  });

  it('has no division by zero: nothing bought and nothing used is 0 %', () => {
    expect(usagePercent(tokenInfo(0, 0))).toBe(0);
    expect(usagePercent(hourInfo(0, 0))).toBe(0);
  });

  it('is approaching from 75 up to below 90 and at the limit from 90', () => {
    expect(usageLevel(74.99)).toBe('normal');
    expect(usageLevel(75)).toBe('approaching');
    expect(usageLevel(89.99)).toBe('approaching');
    expect(usageLevel(90)).toBe('limit');
    expect(usageLevel(140)).toBe('limit');
  });

  it('words the notice by plan: tokens to buy, or an upgrade to consider', () => {
    expect(usageWarning('normal', true)).toBeNull();
    const token = usageWarning('approaching', true);
    expect(token?.title).toBe('Approaching Limit');
    expect(token?.text).toMatch(/purchase more tokens/i);
    const hours = usageWarning('limit', false);
    expect(hours?.title).toBe('Usage Limit Reached');
    expect(hours?.text).toMatch(/consider upgrading.*purchasing additional tokens/i);
  });
});

describe('quick actions (spec 000 §2)', () => {
  it('offers Buy More Tokens on the token plan below 5 tokens remaining only', () => {
    expect(quickActions(tokenInfo(8, 12)).buyMoreTokens).toBe(true); // 4 left
    expect(quickActions(tokenInfo(7, 12)).buyMoreTokens).toBe(false); // exactly 5 left
    expect(quickActions(tokenInfo(7.01, 12)).buyMoreTokens).toBe(true);
    expect(quickActions(hourInfo(0, 10)).buyMoreTokens).toBe(false);
  });

  it('offers Upgrade Plan to non-token plans at 80 % or more', () => {
    expect(quickActions(hourInfo(7.99, 10)).upgradePlan).toBe(false);
    expect(quickActions(hourInfo(8, 10)).upgradePlan).toBe(true);
    expect(quickActions(tokenInfo(12, 12)).upgradePlan).toBe(false);
  });

  it('always offers View Billing Details', () => {
    expect(quickActions(tokenInfo(0, 0)).viewBillingDetails).toBe(true);
    expect(quickActions(hourInfo(0, 10)).viewBillingDetails).toBe(true);
  });
});

describe('durations and counts', () => {
  it('shows small token charges instead of rounding them away', () => {
    expect(formatTokens(12)).toBe('12');
    expect(formatTokens(1.987)).toBe('1.99');
    expect(formatTokens(0.000458)).toBe('0.00046');
    expect(formatTokens(0)).toBe('0');
    // A balance rounds down: 1.9992 left is not "2" (a 2-token run would be refused).
    expect(formatTokenBalance(1.999236)).toBe('1.99');
    expect(formatTokenBalance(1.99)).toBe('1.99');
    expect(formatTokenBalance(12)).toBe('12');
    expect(formatTokenBalance(1_000_000)).toBe('1000000');
    expect(formatTokenBalance(2 + 10)).toBe('12');
    expect(formatTokenBalance(0.004599)).toBe('0.0045');
    expect(formatTokenBalance(0)).toBe('0');
    expect(formatTokenBalance(-1)).toBe('0');
    expect(formatTokens(-1)).toBe('0');
  });

  it('shows durations under one hour in minutes', () => {
    expect(formatHours(0.75)).toBe('45 min');
    expect(formatHours(0.5)).toBe('30 min');
    expect(formatHours(0.004)).toBe('0.24 min');
    expect(formatHours(0.05)).toBe('3 min');
    expect(formatHours(0.0004583)).toBe('0.027 min'); // a 1.65 s job
    expect(formatHours(0)).toBe('0 min');
    expect(formatHours(1)).toBe('1 hour');
    expect(formatHours(2.5)).toBe('2.5 hours');
    expect(formatHours(10)).toBe('10 hours');
  });

  it('labels the bar and counts by plan', () => {
    expect(usageCounts(tokenInfo(3, 12))).toEqual({
      label: 'Tokens Used',
      counts: '3 / 12 tokens',
      remaining: '9 tokens remaining',
    });
    expect(usageCounts(hourInfo(0.25, 10))).toEqual({
      label: 'Compute Hours Used',
      counts: '15 min / 10 hours',
      remaining: '9.75 hours remaining',
    });
  });

  it('fills the three tiles: Available, Used This Period, Plan Limit', () => {
    expect(usageTiles(tokenInfo(3, 12)).map((t) => [t.label, t.value])).toEqual([
      ['Available', '9 tokens'],
      ['Used This Period', '3 tokens'],
      ['Plan Limit', '12 tokens'],
    ]);
    expect(usageTiles(hourInfo(2, 10)).map((t) => [t.label, t.value])).toEqual([
      ['Available', '8 hours'],
      ['Used This Period', '2 hours'],
      ['Plan Limit', '10 hours / month'],
    ]);
  });
});
