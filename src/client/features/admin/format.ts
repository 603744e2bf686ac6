const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** 'MMM d, yyyy' (e.g. 'Jan 5, 2025') in the browser's time zone; '—' for a date that cannot be read. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : dateFormat.format(date);
}

/** Credit figures and counts with thousands separators; credits may be halves (0.5). */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}
