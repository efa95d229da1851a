import { DEFAULT_TOKEN_QUANTITY, TOKEN_PRICE_USD, TOKEN_PURCHASE_OPTIONS } from '@fieldline/contracts';
import { useState } from 'react';

export const tokenOptionLabel = (n: number) => `${n} Tokens - $${n * TOKEN_PRICE_USD}`;

/** Spec 000 §2 Buy Tokens tab: 'N Tokens - $N' options (10 preselected) and 'Purchase Tokens'. */
export function TokenPurchase(props: {
  busy: boolean;
  disabled: boolean;
  onPurchase(quantity: number): void;
}) {
  const [quantity, setQuantity] = useState<number>(DEFAULT_TOKEN_QUANTITY);
  return (
    <section className="panel-card bill-tokens" aria-labelledby="bill-tokens-title">
      <h3 id="bill-tokens-title">Buy Tokens</h3>
      <p className="muted">
        Tokens pay for compute on the pay-as-you-go plan, and for hours beyond a subscription's allowance. One
        token is one dollar and buys one compute-hour. Tokens do not expire.
      </p>
      <label htmlFor="bill-token-quantity">Quantity</label>
      <div className="bill-token-row">
        <select
          id="bill-token-quantity"
          value={quantity}
          onChange={(e) => setQuantity(Number(e.target.value))}
        >
          {TOKEN_PURCHASE_OPTIONS.map((n) => (
            <option key={n} value={n}>
              {tokenOptionLabel(n)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="primary"
          disabled={props.disabled}
          onClick={() => props.onPurchase(quantity)}
        >
          {props.busy ? 'Processing...' : 'Purchase Tokens'}
        </button>
      </div>
    </section>
  );
}
