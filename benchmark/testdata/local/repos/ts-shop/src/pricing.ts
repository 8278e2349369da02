/** Prices are integers in cents everywhere in the shop. */

/**
 * applyDiscount takes percent off a price: applyDiscount(1000, 10) === 900.
 * percent is a whole number from 0 to 100.
 */
export function applyDiscount(priceCents: number, percent: number): number {
  if (percent < 0 || percent > 100) {
    throw new RangeError(`discount ${percent}% is out of range`);
  }
  return Math.round(priceCents * (100 - percent) / 100);
}

export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
