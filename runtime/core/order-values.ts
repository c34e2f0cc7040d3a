/**
 * The money of an order's positions (spec §5, §4 "Cost estimate"), one function for the browser
 * and the server: the server stores the figure this module computes, the wizard shows the same one.
 *
 * Net after discount = (price − price × discount %) × quantity, rounded to 2 decimals (half up,
 * as PostgreSQL's round() on numeric for these non-negative amounts). Computed in whole cents
 * and hundredths of a unit with BigInt, so no binary fraction (0.1 + 0.2) ever reaches the
 * rounding: the result is exact for every price, quantity and percentage the schemas allow.
 */

export interface PositionAmounts {
  /** Quantity (ilosc), up to 2 decimals. */
  ilosc?: number | null;
  /** Unit price (cena), up to 2 decimals. */
  cena?: number | null;
  /** Discount percentage (rabatProc), 0 to 100. */
  rabatProc?: number | null;
  /** Authorisation marker: only 'V' counts into totalAuthorized. */
  autOk?: string | null;
  /** The stored net amount; totals use it when the other amounts are not known (hidden prices). */
  ogNetto?: number | null;
}

/** A decimal with at most 2 places as a whole number of hundredths (0.1 → 10n). */
function hundredths(value: number | null | undefined): bigint {
  if (value === null || value === undefined || !Number.isFinite(value)) return 0n;
  // inputs have at most 2 places (the schemas say so), so ×100 is within a hair of a whole number
  return BigInt(Math.round(value * 100));
}

/** Net value of one position, 2 decimals. */
export function positionNet(position: PositionAmounts): number {
  const price = hundredths(position.cena);
  const quantity = hundredths(position.ilosc);
  const discount = BigInt(Math.min(100, Math.max(0, Math.round(position.rabatProc ?? 0))));
  // price[cents] × (100 − discount) × quantity[hundredths] / (100 × 100) = net in cents, before rounding
  const numerator = price * (100n - discount) * quantity;
  const cents = (numerator + 5000n) / 10000n; // half up; every factor is non-negative
  return Number(cents) / 100;
}

export interface OrderTotals {
  /** Sum of the net values of all positions. */
  total: number;
  /** Sum of the net values of the positions whose autOk is 'V'. */
  totalAuthorized: number;
}

/** Totals of an estimate (spec §4 wizard state: total, totalAuthorized). */
export function orderTotals(positions: readonly PositionAmounts[]): OrderTotals {
  let total = 0n;
  let authorized = 0n;
  for (const p of positions) {
    const net = p.cena === undefined && p.ilosc === undefined && typeof p.ogNetto === 'number'
      ? BigInt(Math.round(p.ogNetto * 100))
      : BigInt(Math.round(positionNet(p) * 100));
    total += net;
    if (p.autOk === 'V') authorized += net;
  }
  return { total: Number(total) / 100, totalAuthorized: Number(authorized) / 100 };
}

/**
 * The tyre action a new position of a tyre order starts with (spec §9): the change to winter
 * tyres from September to March, to summer tyres from April to August. The spec's original
 * check was faulty and always gave summer; docs/decisions.md "Tyre season default" says why we
 * use the rule it meant. `month` is 1–12 in the portal's time zone.
 */
export function defaultTyreAction(month: number): 'Wymiana na zimowe' | 'Wymiana na letnie' {
  return month >= 9 || month <= 3 ? 'Wymiana na zimowe' : 'Wymiana na letnie';
}
