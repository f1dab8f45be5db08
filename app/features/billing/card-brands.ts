/** A card as people read it, from Stripe's brand code: client-safe, no imports. */

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  cartes_bancaires: "Cartes Bancaires",
  eftpos_au: "eftpos",
  interac: "Interac",
};
export const brandLabel = (brand: string) => BRANDS[brand] ?? "Card";

/** "Visa ending 4242". */
export const cardText = (card: { brand: string; last4: string }) => `${brandLabel(card.brand)} ending ${card.last4}`;
