/**
 * Chat-completions chunk envelopes and content bodies for the passthrough's differential tests: the stream's
 * usual envelope first, then the ones a real upstream varies (filter results, another model, a finish, usage,
 * reasoning, a spaced key, a missing field, tool calls, a line break, a raw U+2028).
 */

export const ENVELOPE =
  '{"id":"chatcmpl-abc123","object":"chat.completion.chunk","created":1700000000,"model":"m",' +
  '"choices":[{"index":0,"delta":{"content":"';
export const TAIL = '"},"logprobs":null,"finish_reason":null}]}';

/** A deterministic PRNG so failures reproduce. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

export const ENVELOPES: readonly { prefix: string; suffix: string }[] = [
  { prefix: ENVELOPE, suffix: TAIL },
  { prefix: ENVELOPE.replace("1700000000", "1700000001"), suffix: TAIL },
  { prefix: ENVELOPE.replace('"index":0,', '"index":0,"content_filter_results":{},'), suffix: TAIL },
  { prefix: ENVELOPE, suffix: TAIL.replace('"finish_reason":null', '"finish_reason":"stop"') },
  {
    prefix: ENVELOPE,
    suffix: '"}}],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}',
  },
  { prefix: ENVELOPE.replace('"content":"', '"reasoning_content":"'), suffix: TAIL },
  { prefix: ENVELOPE.replace('"id":"chatcmpl-abc123"', '"id":"chatcmpl"'), suffix: TAIL },
  { prefix: ENVELOPE.replace('"delta":{', '"delta":{"role":"assistant",'), suffix: TAIL },
  { prefix: ENVELOPE.replace('"model":"m"', '"model":"m2"'), suffix: TAIL },
  { prefix: ENVELOPE.replace('"content":"', '"content": "'), suffix: TAIL },
  { prefix: ENVELOPE.replace('"model":"m",', ""), suffix: TAIL },
  { prefix: ENVELOPE.replace('"object":"chat.completion.chunk",', ""), suffix: TAIL },
  {
    prefix: ENVELOPE.replace(
      '"delta":{',
      '"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f"}}],',
    ),
    suffix: TAIL,
  },
  // Chunks that leave re-encoded: a line break between fields, a raw U+2028 in a value.
  { prefix: ENVELOPE.replace(',"choices"', ',\n"choices"'), suffix: TAIL },
  { prefix: ENVELOPE.replace('"model":"m"', '"model":"m\u2028"'), suffix: TAIL },
];

/** Raw content bodies, valid and not, as an upstream might put them between the quotes. */
export const BODIES: readonly string[] = [
  "tok",
  " world",
  'say \\"hi\\"',
  "line\\nbreak",
  "\\u00e9t\\u00e9",
  "caf\u00e9 \ud83d\ude00",
  "\\\\",
  "",
  'a","tool_calls":[],"b":"c',
  'a"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2},"x":[{"y":"',
  "a\\",
  "\\x",
  "raw\ttab",
  "sep\u2028",
  "content",
  "\u4e2d\u6587",
];
