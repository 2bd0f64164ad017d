/** Shared setup for dashboard browser tests: a gateway, a mock upstream, a DB key and headless Chromium. */
import {
  type Browser,
  type BrowserContext,
  chromium,
  type ConsoleMessage,
  type Locator,
  type Page,
} from "playwright-core";
import { createKey } from "../../src/features/keys/service.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type MockUpstream, startMockUpstream } from "../helpers/mock_upstream.ts";

/** Where Chromium lives on this machine. */
export const CHROMIUM = "/usr/bin/chromium";

/** Launch flags: headless, no background traffic, and no DNS outside loopback (TOOLING.md). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
];

/** Why the browser tests are skipped, or "" when they can run. */
export function skipReason(): string {
  try {
    Deno.statSync(CHROMIUM);
  } catch {
    return `browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium)`;
  }
  try {
    Deno.statSync(new URL("../../ui/dist/index.html", import.meta.url));
  } catch {
    return "browser tests skipped: ui/dist is missing (run `deno task build:ui`)";
  }
  return "";
}

/** Folder for screenshots (gitignored). */
export const SCREENS_DIR = new URL("../../test-artifacts/screens/", import.meta.url);

/** One running dashboard under test. */
export interface Dashboard {
  readonly gw: TestGateway;
  readonly mock: MockUpstream;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Plaintext of a DB key with dashboard access. */
  readonly key: string;
  /** Console errors and page errors seen so far. */
  readonly consoleErrors: string[];
  /** Every URL the page requested. */
  readonly requests: string[];
  /** Signs in through /dashboard/login and lands on `path`. */
  signIn(path?: string): Promise<void>;
  /** Saves a screenshot to test-artifacts/screens/<name>.png. */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts everything; pair with `await using`. */
export async function openDashboard(
  options: {
    viewport?: { width: number; height: number };
    colorScheme?: "light" | "dark";
    /** The models of provider `p` (account acct-a); m1 and m2 when absent. */
    models?: readonly string[];
    /** Mirror and check the provider's own key (inventory screens); off, the mock sees only the test's calls. */
    checkProviderKeys?: boolean;
  } = {},
): Promise<Dashboard & AsyncDisposable> {
  const mock = await startMockUpstream();
  mock.script({ json: chatCompletion("Hello from the mock", { prompt_tokens: 12, completion_tokens: 8 }) });
  const gw = await startTestGateway(
    chatProvidersYaml([{
      id: "acct-a",
      prefix: "p",
      url: mock.url,
      models: [...(options.models ?? ["m1", "m2"])],
    }]) +
      "combos:\n  - name: best\n    models: [p/m1, p/m2]\n" +
      (options.checkProviderKeys ? "inventory:\n  check_provider_keys: true\n" : ""),
  );
  const created = createKey(gw.runtime.control.store, {
    name: "browser-admin",
    canLogin: true,
    allowedModels: [],
  }, Date.now());
  gw.runtime.control.reload();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1360, height: 900 },
    colorScheme: options.colorScheme ?? "light",
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    // Validation answers (400/409/422) are expected in form tests; the browser logs them anyway.
    if (message.type() !== "error" || /status of (400|409|422) /.test(message.text())) return;
    consoleErrors.push(`${message.text()} @ ${page.url()}`);
  });
  page.on("pageerror", (error: Error) => consoleErrors.push(`pageerror: ${error.message} @ ${page.url()}`));
  page.on("request", (request) => requests.push(request.url()));
  await Deno.mkdir(SCREENS_DIR, { recursive: true });

  const dashboard: Dashboard & AsyncDisposable = {
    gw,
    mock,
    browser,
    context,
    page,
    key: created.plaintext,
    consoleErrors,
    requests,
    async signIn(path = "/dashboard/ui") {
      await page.goto(`${gw.url}/dashboard/login?next=${encodeURIComponent(path)}`);
      await page.locator("input[name=api_key], input[type=password]").first().fill(created.plaintext);
      await Promise.all([
        page.waitForURL((url) => url.pathname.startsWith("/dashboard/ui")),
        page.locator("form button[type=submit], form input[type=submit], form button").first().click(),
      ]);
      await page.waitForSelector("gw-app gw-sidebar");
    },
    async shot(name: string) {
      await page.screenshot({ path: new URL(`${name}.png`, SCREENS_DIR).pathname, fullPage: true });
    },
    async close() {
      await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await gw.stop();
      await mock.close();
    },
    [Symbol.asyncDispose]() {
      return this.close();
    },
  };
  return dashboard;
}

/** URLs that left the machine's loopback interface. */
export function externalRequests(urls: readonly string[]): string[] {
  return urls.filter((raw) => {
    const url = new URL(raw);
    if (url.protocol === "data:" || url.protocol === "blob:" || url.protocol === "about:") return false;
    return !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  });
}

/** Sends chat requests through the gateway so usage and logs have something to show. */
export async function sendTraffic(
  gw: TestGateway,
  key: string,
  count: number,
  model = "p/m1",
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model, messages: [{ role: "user", content: `hello ${i}` }] }),
    });
    await response.body?.cancel();
  }
}

/** Signs in on the Providers screen and opens the Add provider dialog; returns the open dialog. */
export async function openProviderForm(d: Dashboard): Promise<Locator> {
  await d.signIn("/dashboard/ui/providers");
  await d.page.locator("gw-page-header button", { hasText: "Add provider" }).click();
  return d.page.locator("gw-dialog[open]");
}
