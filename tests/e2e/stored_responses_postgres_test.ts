/**
 * Two gateway instances on one PostgreSQL database (a fleet): a response stored by one is continued with
 * `previous_response_id` and deleted through the other, with the real `openai` SDK (issue 30: the database
 * is the truth, whichever instance answers).
 */
import OpenAI from "openai";
import { assertEquals } from "../helpers/assert.ts";
import { chatCompletion } from "../helpers/chat_fixtures.ts";
import { chatProvidersYaml, startTestGateway } from "../helpers/gateway.ts";
import { startMockUpstream } from "../helpers/mock_upstream.ts";
import { postgresSkip, testPostgres } from "../helpers/postgres.ts";

Deno.test({
  name: "stored responses on PostgreSQL: a second instance continues and deletes what the first stored",
  ignore: postgresSkip("stored responses, two instances"),
  async fn() {
    const upstream = await startMockUpstream();
    upstream.script(
      { json: { ...chatCompletion("Paris."), id: "chatcmpl-one" } },
      { json: { ...chatCompletion("About 2 million."), id: "chatcmpl-two" } },
    );
    const yaml = `storage:\n  url: ${await (await testPostgres()).newDatabase()}\n` +
      chatProvidersYaml([{ id: "a", prefix: "p", url: upstream.url }]);
    const first = await startTestGateway(yaml);
    // The same home: a fleet shares the secret key that seals credentials in the shared database.
    const second = await startTestGateway(yaml, { dir: first.dir });
    const client = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "anything", maxRetries: 0 });
    try {
      const created = await client(first.url).responses.create({
        model: "p/m1",
        input: "Capital of France?",
      });
      const next = await client(second.url).responses.create({
        model: "p/m1",
        previous_response_id: created.id,
        input: "How many people live there?",
      });
      assertEquals(next.output_text, "About 2 million.");
      const messages = upstream.requests[1].body.messages as { role: string; content: unknown }[];
      assertEquals(messages.map((m) => [m.role, m.content]), [
        ["user", "Capital of France?"],
        ["assistant", "Paris."],
        ["user", "How many people live there?"],
      ]);
      assertEquals(
        (await client(second.url).responses.delete(created.id) as unknown as { deleted: boolean }).deleted,
        true,
      );
      const gone = await fetch(`${first.url}/v1/responses/${created.id}`);
      assertEquals(gone.status, 404);
      await gone.body?.cancel();
    } finally {
      await second.stop();
      await first.stop();
      await upstream.close();
    }
  },
});
