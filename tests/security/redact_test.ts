import { assert, assertEquals } from "../helpers/assert.ts";
import { REDACTED, REDACTED_ADDRESS, Redactor, redactShapes } from "../../src/security/redact.ts";

const redactor = new Redactor({
  secrets: ["my-provider-key-1234", "tiny", "key/with+odd chars&"],
  upstreamUrls: [
    "http://127.0.0.1:4321/v1",
    "https://llm.internal.example:8443",
    "https://api.openai.com/v1",
  ],
});

Deno.test("Redactor.redact() hides configured secrets as is, URL-encoded and JSON-escaped", () => {
  const text = 'key my-provider-key-1234; url ?key=key%2Fwith%2Bodd%20chars%26; json "key/with+odd chars&"';
  const out = redactor.redact(text);
  assert(!out.includes("my-provider-key-1234"), out);
  assert(!out.includes("key%2Fwith"), out);
  assert(!out.includes("odd chars&"), out);
  // Secrets shorter than 8 characters would hit ordinary words; they are left to the shapes.
  assertEquals(redactor.redact("a tiny word"), "a tiny word");
});

Deno.test("redactShapes() hides strings shaped like credentials that nobody configured", () => {
  const shaped = [
    "sk-proj-abc123DEF456ghi789",
    "sk-ant-api03-Zq81mXv0RtY6uB2wLk9p",
    "sk-abc1************************wxyz",
    "AIzaSyA1234567890abcdefghijklmnopqrstu",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "gho_abcdefghijklmnopqrstuvwxyz0123456789",
    "xoxb-1234567890-abcdefghij",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
  ];
  for (const secret of shaped) {
    const out = redactShapes(`upstream said: ${secret} is invalid`);
    assertEquals(out, `upstream said: ${REDACTED} is invalid`, secret);
  }
  assertEquals(
    redactShapes("Authorization: Bearer abc.DEF-123_456~xyz"),
    `Authorization: Bearer ${REDACTED}`,
  );
  assertEquals(redactShapes('{"api_key": "0123456789abcdef0123456789abcdef"}'), `{"api_key": "${REDACTED}"}`);
  assertEquals(redactShapes("access_token=deadbeefdeadbeefdeadbeef&x=1"), `access_token=${REDACTED}&x=1`);
  assertEquals(redactShapes("secret: 9f86d081884c7d659a2feaa0c55ad015"), `secret: ${REDACTED}`);
});

Deno.test("redactShapes() leaves ordinary prose alone", () => {
  const prose = [
    "the task-force and risk-management teams",
    "sk-learn is a library",
    "monkey-patching token counting",
    "Bearer authentication failed",
    "a secret: this is fine",
    "max_tokens must be at most 4096",
    "model gpt-4.1-mini-2025-04-14 not found",
  ];
  for (const text of prose) assertEquals(redactShapes(text), text);
});

Deno.test("Redactor.redactForClient() also hides internal addresses and upstream hosts, not public ones", () => {
  const text = "error sending request for url (http://127.0.0.1:4321/v1/chat/completions); " +
    "tried 10.0.0.5:8080, [fd00::1]:80, ::1, localhost:11434, llm.internal.example:8443 and api.openai.com; " +
    "see https://platform.openai.com/docs or 8.8.8.8 at 12:30:45";
  const out = redactor.redactForClient(text);
  for (
    const hidden of ["127.0.0.1", "10.0.0.5", "fd00::1", "::1", "localhost", "llm.internal", "api.openai.com"]
  ) {
    assert(!out.includes(hidden), `${hidden} in ${out}`);
  }
  assert(out.includes(REDACTED_ADDRESS), out);
  for (const kept of ["https://platform.openai.com/docs", "8.8.8.8", "12:30:45"]) {
    assert(out.includes(kept), `${kept} missing from ${out}`);
  }
  // JSON paths and times are not addresses.
  for (const text of ["messages[0].role: is required", "tools[12]", "at 10:30:00", "a::b"]) {
    assertEquals(redactor.redactForClient(text), text);
  }
  // A longer host that only starts with an upstream host is someone else's.
  assertEquals(redactor.redactForClient("api.openai.com.evil.example"), "api.openai.com.evil.example");
});

Deno.test("Redactor output is stable: redacting twice changes nothing more", () => {
  const once = redactor.redactForClient("key my-provider-key-1234 at http://127.0.0.1:4321/v1");
  assertEquals(redactor.redactForClient(once), once);
  assertEquals(redactor.redact(""), "");
});
