import {
  LOW_TOKENS_THRESHOLD,
  type SubscriptionInfo,
  TOKEN_PLAN_ID,
  UPGRADE_SHORTCUT_PERCENT,
  USAGE_APPROACHING_PERCENT,
  USAGE_LIMIT_PERCENT,
} from '@fieldline/contracts';

/**
 * The derived usage info of spec 000 §3: plan, period end, tokens and hours with their remaining
 * values (never below 0), last computation. Accepts both readings of the hour fields
 * (`compute_hours_used`/`compute_hours_limit` or `hours_used`/`hours_limit`).
 */
export interface UsageInfo {
  plan: string;
  current_period_end: string | null;
  tokens_used: number;
  tokens_purchased: number;
  tokens_remaining: number;
  hours_used: number;
  hours_limit: number;
  hours_remaining: number;
  last_compute_time: string | null;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function deriveUsage(info: Partial<SubscriptionInfo> & Record<string, unknown>): UsageInfo {
  const tokensUsed = Math.max(0, num(info.tokens_used));
  const tokensPurchased = Math.max(0, num(info.tokens_purchased));
  const hoursUsed = Math.max(0, num(info.compute_hours_used ?? info.hours_used));
  const hoursLimit = Math.max(0, num(info.compute_hours_limit ?? info.hours_limit));
  const available = info.tokens_available ?? info.tokens_remaining;
  return {
    plan: text(info.plan) ?? TOKEN_PLAN_ID,
    current_period_end: text(info.current_period_end),
    tokens_used: tokensUsed,
    tokens_purchased: tokensPurchased,
    tokens_remaining: Math.max(0, typeof available === 'number' ? available : tokensPurchased - tokensUsed),
    hours_used: hoursUsed,
    hours_limit: hoursLimit,
    hours_remaining: Math.max(0, hoursLimit - hoursUsed),
    last_compute_time: text(info.last_compute_time),
  };
}

export const isTokenPlan = (usage: Pick<UsageInfo, 'plan'>) => usage.plan === TOKEN_PLAN_ID;

/** Percent used: tokens used of purchased (token plan), else hours used of the monthly limit. Uncapped. */
export function usagePercent(usage: UsageInfo): number {
  const [used, limit] = isTokenPlan(usage)
    ? [usage.tokens_used, usage.tokens_purchased]
    : [usage.hours_used, usage.hours_limit];
  if (limit <= 0) return used > 0 ? 100 : 0;
  return (used / limit) * 100;
}

/** Spec 000 §9: one decimal, capped at 100 for display. */
export function formatPercent(percent: number): string {
  return `${Math.min(100, Math.max(0, percent)).toFixed(1)}%`;
}

export type UsageLevel = 'normal' | 'approaching' | 'limit';

/** 75 up to below 90: approaching; 90 and above: limit reached. */
export function usageLevel(percent: number): UsageLevel {
  if (percent >= USAGE_LIMIT_PERCENT) return 'limit';
  if (percent >= USAGE_APPROACHING_PERCENT) return 'approaching';
  return 'normal';
}

export interface QuickActions {
  buyMoreTokens: boolean;
  upgradePlan: boolean;
  viewBillingDetails: true;
}

/** Buy More Tokens: token plan with fewer than 5 tokens left; Upgrade Plan: other plans at 80 % or more. */
export function quickActions(usage: UsageInfo, percent = usagePercent(usage)): QuickActions {
  const token = isTokenPlan(usage);
  return {
    buyMoreTokens: token && usage.tokens_remaining < LOW_TOKENS_THRESHOLD,
    upgradePlan: !token && percent >= UPGRADE_SHORTCUT_PERCENT,
    viewBillingDetails: true,
  };
}

/** The warning notice for a level (null when normal); token plans are told to buy tokens. */
export function usageWarning(level: UsageLevel, tokenPlan: boolean): { title: string; text: string } | null {
  if (level === 'normal') return null;
  const advice = tokenPlan
    ? 'Purchase more tokens to keep running simulations.'
    : 'Consider upgrading your plan or purchasing additional tokens.';
  if (level === 'limit') {
    return {
      title: 'Usage Limit Reached',
      text: `You have used ${USAGE_LIMIT_PERCENT}% or more of your ${tokenPlan ? 'tokens' : 'monthly compute hours'}. ${advice}`,
    };
  }
  return {
    title: 'Approaching Limit',
    text: `You have used ${USAGE_APPROACHING_PERCENT}% or more of your ${tokenPlan ? 'tokens' : 'monthly compute hours'}. ${advice}`,
  };
}

const trim = (x: number, digits: number) => String(Number(x.toFixed(digits)));

/** Spec 000 §2: durations under one hour are shown in minutes ("45 min", "2.5 hours"). */
export function formatHours(hours: number): string {
  const h = Math.max(0, hours);
  if (h < 1) {
    const minutes = h * 60;
    // a short job's seconds still show: two significant digits below a minute
    const shown =
      minutes > 0 && minutes < 1
        ? String(Number(minutes.toPrecision(2)))
        : trim(minutes, minutes < 10 ? 1 : 0);
    return `${shown} min`;
  }
  const shown = trim(h, 2);
  return `${shown} ${shown === '1' ? 'hour' : 'hours'}`;
}

/** Tokens to at most two decimals (job charges are fractional): "12", "1.99"; small amounts to two significant digits ("0.00045"). */
export function formatTokens(tokens: number): string {
  const t = Math.max(0, tokens);
  return t > 0 && t < 0.01 ? String(Number(t.toPrecision(2))) : trim(t, 2);
}

/**
 * A balance (available or remaining tokens) rounds down, never up: 1.9992 left shows "1.99", not "2" —
 * a user who reads 2 would expect a 2-token run to be accepted. Same digits as formatTokens.
 */
export function formatTokenBalance(tokens: number): string {
  const t = Math.max(0, tokens);
  if (t === 0) return '0';
  // two decimals, or two significant digits below 0.01; rounding the quotient to 6 decimals first keeps
  // 12 (1199.9999999999998 hundredths in binary) at 12
  const step = t < 0.01 ? 10 ** (Math.floor(Math.log10(t)) - 1) : 0.01;
  const down = Math.floor(Number((t / step).toFixed(6))) * step;
  return t < 0.01 ? String(Number(down.toPrecision(2))) : trim(down, 2);
}

/** What the counts line and the remaining text say for the plan. */
export function usageCounts(usage: UsageInfo): { label: string; counts: string; remaining: string } {
  if (isTokenPlan(usage)) {
    return {
      label: 'Tokens Used',
      counts: `${formatTokens(usage.tokens_used)} / ${formatTokens(usage.tokens_purchased)} tokens`,
      remaining: `${formatTokenBalance(usage.tokens_remaining)} tokens remaining`,
    };
  }
  return {
    label: 'Compute Hours Used',
    counts: `${formatHours(usage.hours_used)} / ${formatHours(usage.hours_limit)}`,
    remaining: `${formatHours(usage.hours_remaining)} remaining`,
  };
}

/** The three tiles: Available, Used This Period, Plan Limit (tokens purchased, or monthly hours). */
export function usageTiles(usage: UsageInfo): { label: string; value: string }[] {
  if (isTokenPlan(usage)) {
    return [
      { label: 'Available', value: `${formatTokenBalance(usage.tokens_remaining)} tokens` },
      { label: 'Used This Period', value: `${formatTokens(usage.tokens_used)} tokens` },
      { label: 'Plan Limit', value: `${formatTokens(usage.tokens_purchased)} tokens` },
    ];
  }
  return [
    { label: 'Available', value: formatHours(usage.hours_remaining) },
    { label: 'Used This Period', value: formatHours(usage.hours_used) },
    { label: 'Plan Limit', value: `${formatHours(usage.hours_limit)} / month` },
  ];
}

/** "Jun 3, 2026" for dates, with the time for instants. */
export function formatDate(iso: string, withTime = false): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return withTime
    ? d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** "single" → "Single", "pro_plus" → "Pro Plus". */
export function planLabel(plan: string | null | undefined): string {
  if (!plan) return 'Token';
  return plan
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => (w[0] ?? '').toUpperCase() + w.slice(1))
    .join(' ');
}
