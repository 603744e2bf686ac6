import { escapeHtml } from '../../lib/html';

/** The look of the server's own small pages (sign out, verify email). */
export const PAGE_STYLE = `<style>
  /* The app's own colours (src/client/index.css). */
  :root { color-scheme: light dark; --bg: oklch(0.985 0.004 286); --card: oklch(1 0 0); --text: oklch(0.21 0.03 285);
    --muted: oklch(0.45 0.03 285); --border: oklch(0.91 0.012 286); --primary: oklch(0.541 0.281 293.009); }
  @media (prefers-color-scheme: dark) { :root { --bg: oklch(0.16 0.02 285); --card: oklch(0.205 0.025 285);
    --text: oklch(0.96 0.006 286); --muted: oklch(0.74 0.02 286); --border: oklch(0.3 0.025 285); --primary: oklch(0.56 0.24 293); } }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100dvh; display: grid; place-items: center; padding: 1rem; background: var(--bg); color: var(--text);
    font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: 100%; max-width: 24rem; padding: 2rem; border: 1px solid var(--border); border-radius: 0.75rem; background: var(--card); text-align: center; }
  h1 { margin: 0 0 0.5rem; font-size: 1.5rem; }
  p { margin: 0 0 1.5rem; color: var(--muted); overflow-wrap: anywhere; }
  strong { color: var(--text); font-weight: 600; }
  .actions { display: flex; flex-direction: column; gap: 0.75rem; }
  button, a { display: block; width: 100%; padding: 0.625rem 1rem; border-radius: 0.5rem; font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
  button { border: 0; background: var(--primary); color: #ffffff; }
  a { border: 1px solid var(--border); color: var(--text); }
  button:focus-visible, a:focus-visible { outline: 2px solid var(--primary); outline-offset: 2px; }
</style>`;

/**
 * The page GET /api/logout answers to a signed-in browser: it asks before signing out, because a
 * GET can be sent by any other site (a link, an image, a prefetch) and must not end a session.
 * Its button POSTs to /api/logout (same-origin only). No script: the content security policy
 * allows none inline, and the page works without JavaScript.
 */
export function renderLogoutPage(email: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign out - Reelsmith</title>
${PAGE_STYLE}
</head>
<body>
<main>
  <h1>Sign out?</h1>
  <p>You are signed in to Reelsmith as <strong>${escapeHtml(email)}</strong>.</p>
  <div class="actions">
    <form method="post" action="/api/logout"><button type="submit">Sign out</button></form>
    <a href="/dashboard">Stay signed in</a>
  </div>
</main>
</body>
</html>
`;
}
