const FALLBACK_SUPPORT_EMAIL = 'support@reelsmith.local';
const PLACEHOLDER = '__SUPPORT_EMAIL__';

/** The support address the server injects into index.html, or a local fallback. */
export function getSupportEmail(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="reelsmith:support-email"]');
  const content = meta?.content.trim() ?? '';
  return content && content !== PLACEHOLDER ? content : FALLBACK_SUPPORT_EMAIL;
}
