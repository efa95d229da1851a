import { z } from 'zod';
import { BILLING_MESSAGES, TOKEN_PURCHASE_OPTIONS } from './billing-rules.ts';

/** Billing, usage and debug-panel calls of spec 000 §3, §7, §8, §9, shared by the server and the web app. */

export * from './billing-rules.ts';

/** Spec 000 §3 Plan: the plans list is an object keyed by plan id. */
export const PlanFeatures = z.object({
  priority_queue: z.boolean(),
  support_level: z.string().min(1),
  max_file_size_mb: z.number().positive(),
  concurrent_simulations: z.number().int().positive(),
});
export type PlanFeatures = z.infer<typeof PlanFeatures>;

export const Plan = z.object({
  name: z.string().min(1),
  description: z.string(),
  /** US dollars per month. */
  price_monthly: z.number().min(0),
  /** `monthly` plans are listed on the Billing page; `pay_as_you_go` is the token plan. */
  billing_cycle: z.string().min(1),
  compute_hours_per_month: z.number().min(0),
  /** Dollars (= tokens) per compute-hour beyond the included hours. */
  token_cost: z.number().min(0),
  /** The price Checkout sells; null when the plan cannot be bought (e.g. not configured in Stripe). */
  stripe_price_id: z.string().nullable(),
  features: PlanFeatures,
});
export type Plan = z.infer<typeof Plan>;

/** GET /api/plans */
export const PlansResponse = z.record(z.string(), Plan);
export type PlansResponse = z.infer<typeof PlansResponse>;

/** GET /api/user/subscription-info (spec 000 §3), with both readings of the hour fields. */
export const SubscriptionInfo = z.object({
  plan: z.string(),
  plan_name: z.string(),
  /** Subscription status: active, past_due, canceled, incomplete…; 'active' for the token plan. */
  status: z.string(),
  /** ISO time the paid period ends; null on the token plan. */
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  tokens_available: z.number().min(0),
  tokens_used: z.number().min(0),
  tokens_purchased: z.number().min(0),
  tokens_remaining: z.number().min(0),
  compute_hours_used: z.number().min(0),
  compute_hours_limit: z.number().min(0),
  hours_used: z.number().min(0),
  hours_limit: z.number().min(0),
  hours_remaining: z.number().min(0),
  last_compute_time: z.string().nullable(),
  /** Which checkout runs purchases: Stripe, or the built-in test-mode checkout. */
  payment_provider: z.enum(['stripe', 'local', 'disabled']),
});
export type SubscriptionInfo = z.infer<typeof SubscriptionInfo>;

/** POST /api/create-checkout-session */
export const CreateCheckoutSessionRequest = z.object({
  priceId: z
    .string({ error: BILLING_MESSAGES.missingPriceId })
    .trim()
    .min(1, BILLING_MESSAGES.missingPriceId),
});
export const CreateCheckoutSessionResponse = z.object({
  checkoutUrl: z.string(),
  sessionId: z.string(),
});
export type CreateCheckoutSessionResponse = z.infer<typeof CreateCheckoutSessionResponse>;

/** POST /api/purchase-tokens */
export const PurchaseTokensRequest = z.object({
  // The refinement answers the spec's text; `enum` lists the packs in /api/docs.
  quantity: z
    .number({ error: BILLING_MESSAGES.tokenQuantityInvalid })
    .refine(isTokenPurchaseOption, { message: BILLING_MESSAGES.tokenQuantityInvalid })
    .meta({ enum: [...TOKEN_PURCHASE_OPTIONS] }),
});
export const PurchaseTokensResponse = z.object({ checkout_url: z.string(), session_id: z.string() });
export type PurchaseTokensResponse = z.infer<typeof PurchaseTokensResponse>;

export function isTokenPurchaseOption(quantity: unknown): boolean {
  return (TOKEN_PURCHASE_OPTIONS as readonly unknown[]).includes(quantity);
}

/** POST /api/billing/portal: where "Manage Billing" goes (Stripe Customer Portal or the local one). */
export const BillingPortalResponse = z.object({ url: z.string() });

/** POST /api/user/sync-usage */
export const SyncUsageResponse = z.object({
  success: z.boolean(),
  hours_added: z.number().optional(),
  jobs_reconciled: z.number().optional(),
  error: z.string().optional(),
});
export type SyncUsageResponse = z.infer<typeof SyncUsageResponse>;

/** GET /api/user/recent-jobs: the dashboard's Recent Activity. */
export const RecentJob = z.object({
  id: z.string(),
  kind: z.string(),
  analysis_type: z.string(),
  status: z.string(),
  message: z.string().nullable(),
  queued_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  compute_seconds: z.number().nullable(),
  cost_tokens: z.number().nullable(),
  cost_hours: z.number().nullable(),
  /** The name of the API token that submitted the job (issue 38); null when a browser session did. */
  api_token_name: z.string().nullable(),
});
export type RecentJob = z.infer<typeof RecentJob>;
export const RecentJobsResponse = z.object({ jobs: z.array(RecentJob) });

/** The built-in test-mode checkout (no Stripe keys): GET /api/checkout/local/{id}. */
export const LocalCheckoutSession = z.object({
  id: z.string(),
  kind: z.enum(['tokens', 'subscription']),
  status: z.enum(['open', 'completed', 'cancelled', 'expired']),
  description: z.string(),
  quantity: z.number(),
  plan_id: z.string().nullable(),
  amount_cents: z.number().int(),
  currency: z.string(),
  interval: z.enum(['month']).nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  test_mode: z.literal(true),
});
export type LocalCheckoutSession = z.infer<typeof LocalCheckoutSession>;

/** The built-in billing portal (no Stripe keys): GET /api/billing/local-portal. */
export const LocalPortalInfo = z.object({
  plan: z.string(),
  plan_name: z.string(),
  status: z.string(),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  subscription_id: z.string().nullable(),
  test_mode: z.literal(true),
});
export type LocalPortalInfo = z.infer<typeof LocalPortalInfo>;

/** Spec 000 §3 Recent task, as GET /api/admin/list-recent-ecs-tasks lists them. */
export const RecentTask = z.object({
  taskArn: z.string(),
  taskDefinitionArn: z.string(),
  lastStatus: z.string(),
  createdAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  stoppedAt: z.string().nullable(),
  cpu: z.string().nullable(),
  memory: z.string().nullable(),
  /** The name of the API token that submitted the job (issue 38); null when a browser session did. */
  submittedWithToken: z.string().nullable().optional(),
});
export type RecentTask = z.infer<typeof RecentTask>;
