/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The self-contained sign-in page: no scripts, no external requests, inline CSS with light/dark. With single
 * sign-on configured (`sso`: the provider's display name) it offers both: the provider's button and the key.
 */
export function loginPage(next: string, error: string, sso: string | null = null): string {
  const message = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "";
  const single = sso === null
    ? ""
    : `<a class="sso" href="/dashboard/sso/start?next=${escapeHtml(encodeURIComponent(next))}">Sign in with ${
      escapeHtml(sso)
    }</a>
<p class="or">or with an API key</p>
`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Sign in · Gateway dashboard</title>
<style>
:root { color-scheme: light dark; --bg: #f5f6f8; --card: #fff; --fg: #1b1f24; --muted: #5b6470;
  --border: #d5d9df; --accent: #2f6fed; --error: #b42318; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1216; --card: #181c22; --fg: #e6e9ee;
  --muted: #9aa3ae; --border: #2c323b; --accent: #6e9bff; --error: #ff8a7a; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg);
  color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { width: min(92vw, 380px); background: var(--card); border: 1px solid var(--border);
  border-radius: 12px; padding: 28px; }
h1 { font-size: 20px; margin: 0 0 4px; }
p { margin: 0 0 18px; color: var(--muted); }
label { display: block; font-weight: 600; margin-bottom: 6px; }
input[type=password] { width: 100%; padding: 10px 12px; border: 1px solid var(--border); border-radius: 8px;
  background: transparent; color: inherit; font: inherit; }
input[type=password]:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
button { margin-top: 16px; width: 100%; padding: 10px; border: 0; border-radius: 8px; background: var(--accent);
  color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
.error { color: var(--error); margin: 0 0 14px; }
.sso { display: block; text-align: center; padding: 10px; border-radius: 8px; background: var(--accent);
  color: #fff; font-weight: 600; text-decoration: none; }
.or { text-align: center; margin: 14px 0; }
</style>
</head>
<body>
<main>
<h1>Gateway dashboard</h1>
<p>Sign in with an API key that is allowed to open the dashboard.</p>
${message}
${single}<form method="post" action="/dashboard/login">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="api_key">API key</label>
<input id="api_key" name="api_key" type="password" autocomplete="current-password" required autofocus
  placeholder="sk-gateway-…">
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;
}

/**
 * The page a single sign-on ends on. The provider's redirect is a cross-site navigation, and a browser does
 * not send the SameSite=Strict session cookie on it nor on redirects that follow it; this page's refresh is
 * a same-site navigation, so the dashboard sees the session.
 */
export function signedInPage(next: string): string {
  const target = escapeHtml(next);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0;url=${target}">
<meta name="referrer" content="same-origin">
<title>Signed in · Gateway dashboard</title>
</head>
<body>
<p>Signed in. <a href="${target}">Continue to the dashboard</a>.</p>
</body>
</html>
`;
}
