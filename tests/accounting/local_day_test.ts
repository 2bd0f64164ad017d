import { assertEquals } from "../helpers/assert.ts";
import { dayStartMs, isValidTimeZone, secondsUntilMidnight } from "../../src/accounting/mod.ts";

const at = (iso: string) => Date.parse(iso);

Deno.test("secondsUntilMidnight() counts to the next local midnight in UTC, Tokyo and Kolkata", () => {
  assertEquals(secondsUntilMidnight(at("2025-01-15T12:00:00Z"), "UTC"), 43_200);
  assertEquals(secondsUntilMidnight(at("2025-01-15T12:00:00Z"), "Asia/Tokyo"), 10_800); // 21:00 local
  assertEquals(secondsUntilMidnight(at("2025-01-15T18:00:00Z"), "Asia/Kolkata"), 1_800); // 23:30 local
});

Deno.test("secondsUntilMidnight() rounds up and never returns less than 1", () => {
  assertEquals(secondsUntilMidnight(at("2025-01-15T23:59:59.800Z"), "UTC"), 1);
  assertEquals(secondsUntilMidnight(at("2025-01-15T23:59:58.500Z"), "UTC"), 2);
  assertEquals(secondsUntilMidnight(at("2025-01-16T00:00:00Z"), "UTC"), 86_400);
});

Deno.test("secondsUntilMidnight() spans 23 hours on the New York spring-forward day", () => {
  assertEquals(secondsUntilMidnight(at("2025-03-09T05:00:00Z"), "America/New_York"), 82_800);
});

Deno.test("secondsUntilMidnight() spans 25 hours on the New York fall-back day", () => {
  assertEquals(secondsUntilMidnight(at("2025-11-02T04:00:00Z"), "America/New_York"), 90_000);
});

Deno.test("secondsUntilMidnight() reaches 01:00 when a DST jump skips midnight (Santiago)", () => {
  // 2024-09-08 starts at 01:00 -03 = 04:00Z; from 08:00 -04 the day before that is 20 hours.
  assertEquals(secondsUntilMidnight(at("2024-09-07T12:00:00Z"), "America/Santiago"), 57_600);
});

Deno.test("dayStartMs() finds the start of the local day across DST changes", () => {
  assertEquals(dayStartMs(at("2025-03-09T20:00:00Z"), "America/New_York"), at("2025-03-09T05:00:00Z"));
  assertEquals(dayStartMs(at("2025-11-02T23:00:00Z"), "America/New_York"), at("2025-11-02T04:00:00Z"));
  assertEquals(dayStartMs(at("2024-09-08T12:00:00Z"), "America/Santiago"), at("2024-09-08T04:00:00Z"));
  assertEquals(dayStartMs(at("2025-01-15T02:00:00Z"), "Asia/Tokyo"), at("2025-01-14T15:00:00Z"));
  assertEquals(dayStartMs(at("2025-01-15T00:00:00Z"), "UTC"), at("2025-01-15T00:00:00Z"));
});

Deno.test("isValidTimeZone() accepts IANA names and the empty server zone, rejects junk", () => {
  assertEquals(isValidTimeZone("Europe/Berlin"), true);
  assertEquals(isValidTimeZone(""), true);
  assertEquals(isValidTimeZone("Mars/Olympus"), false);
});
