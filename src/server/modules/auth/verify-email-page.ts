import { escapeHtml } from '../../lib/html';
import { PAGE_STYLE } from './logout-page';

/**
 * The page a mailed verification link opens. Opening it changes nothing (mail scanners and previews
 * follow links); its button POSTs the token. No script, like the sign-out page.
 */
export function renderVerifyEmailPage({ token, error }: { token: string; error?: string }): string {
  const body =
    error || !token
      ? `<h1>Verify your email</h1>
  <p>${escapeHtml(error ?? 'This verification link is incomplete. Sign in and ask for a new one.')}</p>
  <div class="actions"><a href="/dashboard">Go to Reelsmith</a></div>`
      : `<h1>Verify your email</h1>
  <p>Confirm that this email address is yours.</p>
  <div class="actions">
    <form method="post" action="/api/auth/verify-email/form"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Verify my email</button></form>
  </div>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>Verify your email - Reelsmith</title>
${PAGE_STYLE}
</head>
<body>
<main>
  ${body}
</main>
</body>
</html>
`;
}
