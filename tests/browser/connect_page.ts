/**
 * Shared steps of the Connect browser tests: the Providers screen signed in with a static admin key, and
 * the one leak check (no secret in a dashboard answer, on the page, in a log line or in a model answer).
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { externalRequests } from "./harness.ts";

/** Everything printed to the console while `work` runs (the gateway logs there). */
export async function capturingLogs<T>(work: (lines: string[]) => Promise<T>): Promise<T> {
  const lines: string[] = [];
  const saved = { log: console.log, error: console.error, warn: console.warn, info: console.info };
  for (const name of ["log", "error", "warn", "info"] as const) {
    console[name] = (...args: unknown[]) => {
      lines.push(args.map(String).join(" "));
      saved[name](...args);
    };
  }
  try {
    return await work(lines);
  } finally {
    Object.assign(console, saved);
  }
}

/** A Providers screen under test, with what the page fetched and threw so far. */
export interface ProvidersScreen {
  readonly page: Page;
  /** Bodies of every dashboard API answer. */
  readonly answers: string[];
  /** Every URL the page requested. */
  readonly requests: string[];
  readonly pageErrors: string[];
}

/** Opens a new page, signs in with `adminKey` and lands on the Providers screen. */
export async function openProvidersScreen(
  browser: Browser,
  gatewayUrl: string,
  adminKey: string,
): Promise<ProvidersScreen> {
  const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
  const answers: string[] = [];
  const requests: string[] = [];
  const pageErrors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e: Error) => pageErrors.push(e.message));
  page.on("response", async (r) => {
    if (r.url().includes("/dashboard/api/")) answers.push(await r.text().catch(() => ""));
  });
  await page.goto(`${gatewayUrl}/dashboard/login?next=${encodeURIComponent("/dashboard/ui/providers")}`);
  await page.locator("input[type=password]").first().fill(adminKey);
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/dashboard/ui/providers"),
    page.locator("form button").first().click(),
  ]);
  return { page, answers, requests, pageErrors };
}

/** The page's markup, shadow roots included: where a secret the UI rendered would show. */
export function pageMarkup(page: Page): Promise<string> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      texts.push(root instanceof Document ? root.body.innerHTML : root.innerHTML);
      root.querySelectorAll("*").forEach((el) => el.shadowRoot && walk(el.shadowRoot));
    };
    walk(document);
    return texts.join("\n");
  });
}

/**
 * No secret in a dashboard answer, the page markup, a log line or a model answer; and the page threw
 * nothing and asked nothing beyond loopback.
 */
export function assertNothingLeaked(
  screen: ProvidersScreen,
  secrets: readonly string[],
  seen: {
    readonly pageMarkup: string;
    readonly logLines: readonly string[];
    readonly modelAnswers: string[];
  },
): void {
  for (const secret of secrets) {
    assert(!screen.answers.some((a) => a.includes(secret)), `a dashboard answer carried ${secret}`);
    assert(!seen.pageMarkup.includes(secret), `the page showed ${secret}`);
    assert(!seen.logLines.some((l) => l.includes(secret)), `a log line carried ${secret}`);
    assert(!seen.modelAnswers.some((a) => a.includes(secret)), `a model answer carried ${secret}`);
  }
  assertEquals(screen.pageErrors, []);
  assertEquals(externalRequests(screen.requests), []);
}
