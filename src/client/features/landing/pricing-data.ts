// Spec section 9. These move to src/shared once the server's pricing module exists there.
export const CREDIT_PRICE_USD = 1;

export interface CreditPackage {
  credits: number;
  priceUsd: number;
  popular: boolean;
}

export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  { credits: 10, priceUsd: 10, popular: false },
  { credits: 30, priceUsd: 30, popular: true },
  { credits: 75, priceUsd: 75, popular: false },
  { credits: 200, priceUsd: 200, popular: false },
];

export const VIDEO_COSTS = [
  { label: 'Economy video', credits: 0.5 },
  { label: 'Standard video', credits: 1 },
  { label: 'Video with audio or voice', credits: 3 },
] as const;

export function formatCreditCount(credits: number): string {
  return `${credits} ${credits === 1 ? 'credit' : 'credits'}`;
}
