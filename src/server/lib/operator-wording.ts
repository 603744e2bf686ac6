/**
 * A sentence for a customer from one written for the operator: 'Not available on this server: it has
 * no fal.ai key (FAL_KEY).' becomes '... it has no fal.ai key.'. Customers read what is missing, never
 * the names of the operator's variables; administrators see them (GET /api/models).
 */
export function withoutOperatorNames(text: string): string {
  return text.replace(/\s*\((?:[A-Z][A-Z0-9]*_[A-Z0-9_]+(?:,\s*|\s+and\s+)?)+\)/g, '');
}
