import { assert, assertEquals } from "../../helpers/assert.ts";
import type { Message, ToolResultPart } from "../../../src/model/mod.ts";
import { rtkCompressRequest } from "../../../src/savers/rtk/mod.ts";
import { request } from "../request_fixture.ts";
import { gitLog } from "./fixtures.ts";

function toolMessage(result: Partial<ToolResultPart> & { text: string }): Message {
  const { text, ...rest } = result;
  return {
    role: "tool",
    parts: [{ kind: "toolResult", callId: "call_1", content: [{ kind: "text", text }], ...rest }],
  };
}

function resultText(message: Message): string {
  const part = message.parts[0];
  assert(part.kind === "toolResult" && part.content[0].kind === "text");
  return part.content[0].text;
}

Deno.test("rtkCompressRequest() compresses tool results in tool and user messages", () => {
  const log = gitLog(60);
  const userWithResult: Message = { role: "user", parts: toolMessage({ text: log }).parts };
  const out = rtkCompressRequest(request([], [toolMessage({ text: log }), userWithResult]));
  assert(resultText(out.messages[0]).length < log.length);
  assert(resultText(out.messages[1]).length < log.length);
});

Deno.test("rtkCompressRequest() skips error results and keeps cache breakpoints on compressed parts", () => {
  const log = gitLog(60);
  const errored = toolMessage({ text: log, isError: true });
  const cached: Message = {
    role: "tool",
    parts: [{
      kind: "toolResult",
      callId: "c",
      content: [{ kind: "text", text: log, cacheControl: { type: "ephemeral" } }],
    }],
  };
  const out = rtkCompressRequest(request([], [errored, cached]));
  assert(out.messages[0] === errored, "error results are untouched");
  const part = out.messages[1].parts[0];
  assert(part.kind === "toolResult");
  assertEquals(part.content[0].cacheControl, { type: "ephemeral" });
});

Deno.test("rtkCompressRequest() returns the same request when nothing can be compressed", () => {
  const input = request([], [toolMessage({ text: "small output" }), {
    role: "user",
    parts: [{ kind: "text", text: "hi" }],
  }]);
  assert(rtkCompressRequest(input) === input);
});
