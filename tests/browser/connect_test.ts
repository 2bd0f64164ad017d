/**
 * Connecting subscription providers from the Providers screen, as a user does it, against mock OAuth
 * servers: the device flow (code shown, polling through pending and slow_down, success) and the
 * paste-the-redirect-URL flow (provider page in a new tab, address pasted back). Afterwards each provider
 * is called through the gateway with the stored credential, and no token shows up in any dashboard answer,
 * on the page, or in a log line.
 */
import { chromium } from "playwright-core";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { assertEquals } from "../helpers/assert.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import {
  MOCK_ACCESS_TOKEN,
  MOCK_REFRESH_TOKEN,
  MOCK_SESSION_TOKEN,
  startMockOAuth,
} from "../helpers/mock_oauth.ts";
import { assertNothingLeaked, capturingLogs, openProvidersScreen, pageMarkup } from "./connect_page.ts";
import { CHROMIUM, CHROMIUM_ARGS, SCREENS_DIR, skipReason } from "./harness.ts";

const ignore = skipReason();
const ADMIN = "static-admin-key-connect-browser";
const SECRETS = [MOCK_ACCESS_TOKEN, MOCK_REFRESH_TOKEN, MOCK_SESSION_TOKEN, "mock-device-code-secret"];

Deno.test({
  ignore: ignore !== "",
  sanitizeOps: false,
  sanitizeResources: false,
  name:
    "Providers screen: Connect signs in with a device code and with a pasted redirect URL; both are callable after",
  fn: () =>
    capturingLogs(async (logLines) => {
      await using oauth = await startMockOAuth();
      oauth.deviceSteps("authorization_pending", "slow_down", "ok");
      await using upstream = await startMockUpstreamDisposable();
      oauth.copilotApi = upstream.url;
      upstream.script({
        handler: (request) => {
          if (request.path.endsWith("/models")) {
            return Response.json({ data: [{ id: "gpt-4o", supported_endpoints: ["/chat/completions"] }] });
          }
          if (request.path.endsWith("/v1/messages")) {
            return Response.json({
              id: "msg_1",
              type: "message",
              role: "assistant",
              model: "claude-sonnet",
              content: [{ type: "text", text: "Hello from Claude" }],
              stop_reason: "end_turn",
              usage: { input_tokens: 5, output_tokens: 3 },
            });
          }
          return Response.json(
            chatCompletion("Hello from Copilot", { prompt_tokens: 5, completion_tokens: 3 }),
          );
        },
      });
      const gw = await startTestGateway(`providers:
  - id: copilot
    prefix: cp
    api_type: device_oauth_assistant
    base_url: ${upstream.url}
    models: [gpt-4o]
${oauth.overridesYaml("    ")}  - id: claude
    prefix: cl
    api_type: messages_oauth
    base_url: ${upstream.url}
    models: [claude-sonnet]
${oauth.overridesYaml("    ")}api_keys:
  - key: ${ADMIN}
    client_key_label: admin
`);
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const screen = await openProvidersScreen(browser, gw.url, ADMIN);
        const page = screen.page;

        // Device flow: the code with a copy button, the link, polling through pending and slow_down.
        await page.locator("gw-provider-card[data-provider=copilot] button", { hasText: "Connect" }).click();
        const dialog = page.locator("gw-connect-dialog gw-dialog[open]");
        await dialog.locator("[data-user-code]").waitFor();
        assertEquals(await dialog.locator("[data-user-code]").textContent(), oauth.userCode);
        assertEquals(await dialog.locator("gw-copy-button").count(), 1);
        assertEquals(await dialog.locator(`a[href="${oauth.url}/login/device"]`).count(), 1);
        await dialog.locator("text=Waiting for approval").waitFor();
        await page.screenshot({ path: new URL("connect-device.png", SCREENS_DIR).pathname });
        await dialog.locator("text=checks every 6 s").waitFor({ timeout: 15_000 });
        await dialog.locator("text=Connected.").waitFor({ timeout: 20_000 });
        await dialog.locator("button", { hasText: "Done" }).click();

        const copilot = await fetch(`${gw.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "cp/gpt-4o", messages: [{ role: "user", content: "hi" }] }),
        });
        const copilotText = await copilot.text();
        assertEquals(copilot.status, 200, copilotText);
        assertEquals(JSON.parse(copilotText).choices[0].message.content, "Hello from Copilot");
        const chatCall = upstream.requests.find((r) => r.path.endsWith("/chat/completions"))!;
        assertEquals(chatCall.headers.get("authorization"), `Bearer ${MOCK_SESSION_TOKEN}`);

        // PKCE: the provider's page opens in a new tab; the address it lands on is pasted back.
        await page.locator("gw-provider-card[data-provider=claude] button", { hasText: "Connect" }).click();
        const link = dialog.locator("a[data-authorize]");
        await link.waitFor();
        const [tab] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
        await tab.waitForURL((url) => url.pathname === "/callback");
        const landed = tab.url();
        await tab.close();
        await dialog.locator("input[name=redirect_url]").fill(landed.replace(/state=[^&]+/, "state=stale"));
        await dialog.locator("button[type=submit]").click();
        await dialog.locator("text=state does not match").waitFor();
        await dialog.locator("input[name=redirect_url]").fill(landed);
        await dialog.locator("button[type=submit]").click();
        await dialog.locator("text=Connected.").waitFor({ timeout: 10_000 });
        await page.screenshot({ path: new URL("connect-pkce.png", SCREENS_DIR).pathname });
        const markup = await pageMarkup(page);
        await dialog.locator("button", { hasText: "Done" }).click();

        const claude = await fetch(`${gw.url}/v1/messages`, {
          method: "POST",
          headers: {
            "x-api-key": ADMIN,
            "content-type": "application/json",
            "anthropic-version": "2023-06-01",
          },
          body: JSON.stringify({
            model: "cl/claude-sonnet",
            max_tokens: 50,
            messages: [{ role: "user", content: "hi" }],
          }),
        });
        const claudeText = await claude.text();
        assertEquals(claude.status, 200, claudeText);
        assertEquals(JSON.parse(claudeText).content[0].text, "Hello from Claude");
        const messagesCall = upstream.requests.find((r) => r.path.endsWith("/v1/messages"))!;
        assertEquals(messagesCall.headers.get("authorization"), `Bearer ${MOCK_ACCESS_TOKEN}`);

        assertNothingLeaked(screen, SECRETS, {
          pageMarkup: markup,
          logLines,
          modelAnswers: [copilotText, claudeText],
        });
      } finally {
        await browser.close().catch(() => {});
        await gw.stop();
      }
    }),
});

async function startMockUpstreamDisposable() {
  const mock = await startMockUpstream();
  return Object.assign(mock, { [Symbol.asyncDispose]: () => mock.close() });
}
