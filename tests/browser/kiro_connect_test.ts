/**
 * Connecting a Kiro provider from the Providers screen as a user does it, against a mock AWS OIDC server:
 * the device code with its copy button and AWS's link, Cancel stopping the polls, then a second Connect
 * that succeeds; the provider then answers through a mock `generateAssistantResponse`, and neither the
 * registered client secret nor a token shows up on the page, in a dashboard answer or in a log line.
 */
import { chromium } from "playwright-core";
import { startTestGateway } from "../helpers/gateway.ts";
import { assertEquals } from "../helpers/assert.ts";
import { kiroEvent } from "../helpers/event_stream_encode.ts";
import { splitEventStream } from "../helpers/kiro_wire.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import {
  AWS_ACCESS_TOKEN,
  AWS_CLIENT_SECRET,
  AWS_DEVICE_CODE,
  AWS_REFRESH_TOKEN,
  AWS_USER_CODE,
  kiroGatewayYaml,
  startMockAwsOidc,
} from "../helpers/mock_aws_oidc.ts";
import { assertNothingLeaked, capturingLogs, openProvidersScreen, pageMarkup } from "./connect_page.ts";
import { CHROMIUM, CHROMIUM_ARGS, skipReason } from "./harness.ts";
import { holdsFalse, waitFor } from "../helpers/wait.ts";

const ignore = skipReason();
const ADMIN = "static-admin-key-kiro-browser";
const SECRETS = [AWS_CLIENT_SECRET, AWS_ACCESS_TOKEN, AWS_REFRESH_TOKEN, AWS_DEVICE_CODE];

Deno.test({
  ignore: ignore !== "",
  sanitizeOps: false,
  sanitizeResources: false,
  name:
    "Providers screen: Kiro's Connect shows the AWS device code, cancels, then signs in; the provider answers after",
  fn: () =>
    capturingLogs(async (logLines) => {
      await using oidc = await startMockAwsOidc();
      const kiro = await startMockUpstream();
      const gw = await startTestGateway(kiroGatewayYaml(oidc, kiro.url, ADMIN));
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        const screen = await openProvidersScreen(browser, gw.url, ADMIN);
        const page = screen.page;

        // First attempt: the code, a copy button and AWS's link; Cancel ends it on the server.
        oidc.deviceSteps("authorization_pending");
        const connect = page.locator("gw-provider-card[data-provider=kiro] button", { hasText: "Connect" });
        await connect.click();
        const dialog = page.locator("gw-connect-dialog gw-dialog[open]");
        await dialog.locator("[data-user-code]").waitFor();
        assertEquals(await dialog.locator("[data-user-code]").textContent(), AWS_USER_CODE);
        assertEquals(await dialog.locator("gw-copy-button").count(), 1);
        const link = dialog.locator(`a[href="${oidc.url}/device?user_code=${AWS_USER_CODE}"]`);
        assertEquals(await link.count(), 1, "the link that carries the code");
        assertEquals(await link.textContent(), `${oidc.url}/device`);
        await dialog.locator("text=Waiting for approval").waitFor();
        const polls = () => oidc.requests.filter((r) => r.path === "/token").length;
        await waitFor(() => polls() > 0, { what: "the gateway to poll AWS" });
        await dialog.locator("button", { hasText: "Cancel" }).click();
        await page.locator("gw-connect-dialog gw-dialog[open]").waitFor({ state: "detached" });
        // A poll already under way when Cancel was handled may still arrive; none may follow it. Watched
        // for longer than two poll intervals (1 s), so a poller that went on would show.
        const afterCancel = polls();
        await holdsFalse(() => polls() > afterCancel + 1, 2_500, "a poll after Cancel");

        // Second attempt: approved after one pending poll.
        oidc.deviceSteps("authorization_pending", "ok");
        await connect.click();
        await dialog.locator("text=Connected.").waitFor({ timeout: 20_000 });
        const markup = await pageMarkup(page);
        await dialog.locator("button", { hasText: "Done" }).click();

        kiro.script({
          handler: () =>
            splitEventStream([
              kiroEvent("assistantResponseEvent", { content: "Hello from Kiro" }),
              kiroEvent("metricsEvent", { inputTokens: 5, outputTokens: 3 }),
            ], 6),
        });
        const answer = await fetch(`${gw.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: "kr/claude-sonnet-4.5",
            messages: [{ role: "user", content: "hi" }],
          }),
        });
        const answerText = await answer.text();
        assertEquals(answer.status, 200, answerText);
        assertEquals(JSON.parse(answerText).choices[0].message.content, "Hello from Kiro");
        assertEquals(kiro.requests[0].headers.get("authorization"), `Bearer ${AWS_ACCESS_TOKEN}`);
        assertNothingLeaked(screen, SECRETS, { pageMarkup: markup, logLines, modelAnswers: [answerText] });
      } finally {
        await browser.close().catch(() => {});
        await gw.stop();
        await kiro.close();
      }
    }),
});
