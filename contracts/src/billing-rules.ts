// Plain constants (no zod), so a page that needs only the rules and texts does not load the schemas.
/** Spec 000 §9: the token packs on sale, one dollar per token, 10 preselected. */
export const TOKEN_PURCHASE_OPTIONS = [5, 10, 25, 50, 75, 100, 150, 200, 300, 500] as const;
export const DEFAULT_TOKEN_QUANTITY = 10;
export const TOKEN_PRICE_USD = 1;

/** Spec 000 §9 usage thresholds (percent) and the low-token shortcut. */
export const USAGE_APPROACHING_PERCENT = 75;
export const USAGE_LIMIT_PERCENT = 90;
export const UPGRADE_SHORTCUT_PERCENT = 80;
export const LOW_TOKENS_THRESHOLD = 5;
export const USAGE_POLL_INTERVAL_MS = 30_000;

/** The default plan of every account (spec 000 §4). */
export const TOKEN_PLAN_ID = 'token';

/** User-facing texts of spec 000 §5 and §8 (exact), plus the server's own where the spec has none. */
export const BILLING_MESSAGES = {
  subscriptionLoadFailed: 'Failed to load subscription information',
  subscriptionLoadError: 'Error loading subscription data',
  usageFetchFailed: 'Failed to fetch usage data',
  missingPriceId: 'Missing priceId',
  noCheckoutUrl: 'No checkout URL received from server',
  checkoutFailed: 'Failed to create checkout session',
  tokenPurchaseFailed: 'Failed to initiate token purchase',
  networkError: 'Network error occurred',
  debugNetworkError: 'Network error',
  listTasksNetworkError: 'Network error listing ECS tasks',
  listTasksFailed: 'Failed to list ECS tasks',
  enterTaskId: 'Please enter a task ARN or task ID',
  // The server's own (spec: "server error text").
  tokenQuantityInvalid: `Token quantity must be one of ${TOKEN_PURCHASE_OPTIONS.join(', ')}`,
  unknownPrice: 'Unknown priceId: no monthly plan has this price',
  alreadySubscribed: 'You are already subscribed to this plan. Use Manage Billing to change or cancel it.',
  paymentsDisabled: 'Payments are not configured on this server',
  noBillingAccount: 'There is no billing account yet: subscribe to a plan or buy tokens first.',
  checkoutNotFound: 'Checkout session not found',
  checkoutExpired: 'This checkout session has expired. Start a new purchase from the Billing page.',
  checkoutClosed: 'This checkout session is already closed.',
  webhookSignature: 'Invalid Stripe signature',
  webhookNotConfigured: 'Stripe webhooks are not configured on this server',
} as const;
