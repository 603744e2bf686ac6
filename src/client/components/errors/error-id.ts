const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** An id the user can quote to support: err_{timestamp}_{9 random base-36 characters}. */
export function createErrorId(now: number = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  const random = Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
  return `err_${now}_${random}`;
}
