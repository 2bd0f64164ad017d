/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The self-contained sign-in page: no scripts, no external requests, inline CSS with light/dark. */
export function loginPage(next: string, error: string): string {
  const message = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "";
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
</style>
</head>
<body>
<main>
<h1>Gateway dashboard</h1>
<p>Sign in with an API key that is allowed to open the dashboard.</p>
${message}
<form method="post" action="/dashboard/login">
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
