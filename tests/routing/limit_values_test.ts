import { assertEquals } from "../helpers/assert.ts";
import { readDuration, readResetAt } from "../../src/routing/mod.ts";
import { readBool, readEpoch, readNumber } from "../../src/routing/limit_values.ts";

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

Deno.test("readDuration() reads OpenAI/Go durations and protobuf durations", () => {
  const rows: [string, number | null][] = [
    ["6m0s", 360_000],
    ["1h2m3.5s", 3_723_500],
    ["20ms", 20],
    ["1.5s", 1_500],
    ["34s", 34_000],
    ["2d", 172_800_000],
    ["0s", 0],
    ["", null],
    ["6m 0s", null],
    ["soon", null],
    ["5x", null],
    ["s", null],
  ];
  for (const [text, ms] of rows) assertEquals(readDuration(text), ms, text);
});

Deno.test("readResetAt() reads each reset format upstreams send", () => {
  const rows: [string, number | null][] = [
    ["6m0s", NOW + 360_000],
    ["30", NOW + 30_000],
    ["0.5", NOW + 500],
    ["1767225600", 1_767_225_600_000],
    ["1767225600000", 1_767_225_600_000],
    ["2026-11-25T13:00:00Z", NOW + 3_600_000],
    ["2026-11-25T13:00:00.000+00:00", NOW + 3_600_000],
    ["Wed, 25 Nov 2026 12:05:00 GMT", NOW + 300_000],
    ["-5", null],
    ["tomorrow", null],
    ["1", NOW + 1_000],
    ["", null],
  ];
  for (const [text, at] of rows) assertEquals(readResetAt(text, NOW), at, text);
  assertEquals(readResetAt(null, NOW), null);
});

Deno.test("readResetAt() of any whole number of seconds below the epoch floor is now + that delay", () => {
  // Property: every delay from 0 to ~31 years reads as a delay, never as a date.
  for (let seconds = 0; seconds < 999_999_999; seconds = seconds * 3 + 7) {
    assertEquals(readResetAt(String(seconds), NOW), NOW + seconds * 1000, String(seconds));
  }
});

Deno.test("readDuration() of a composed h/m/s string equals the sum of its parts", () => {
  for (let h = 0; h < 30; h += 7) {
    for (let m = 0; m < 60; m += 13) {
      for (let s = 0; s < 60; s += 17) {
        assertEquals(readDuration(`${h}h${m}m${s}s`), ((h * 60 + m) * 60 + s) * 1000);
      }
    }
  }
});

Deno.test("readNumber(), readBool() and readEpoch() accept only clean values", () => {
  assertEquals(readNumber(" 42 "), 42);
  assertEquals(readNumber("4.5e2"), 450);
  assertEquals(readNumber("42abc"), null);
  assertEquals(readNumber("0x10"), null);
  assertEquals(readBool("TRUE"), true);
  assertEquals(readBool("0"), false);
  assertEquals(readBool("yes"), null);
  assertEquals(readEpoch(1_767_225_600), 1_767_225_600_000);
  assertEquals(readEpoch("1767225600000"), 1_767_225_600_000);
  assertEquals(readEpoch(0), null);
  assertEquals(readEpoch("never"), null);
});
