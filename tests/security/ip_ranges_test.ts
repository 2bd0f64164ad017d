import { ipMatcher, isPublicAddress, parseIpRange } from "../../src/security/ip_ranges.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";

Deno.test("ipMatcher() matches IPv4 and IPv6 addresses and ranges, and IPv4-mapped peers as IPv4", () => {
  const trusted = ipMatcher(["10.0.0.0/8", "192.168.1.7", "fd00::/8", "::1"]);
  for (const peer of ["10.1.2.3", "192.168.1.7", "::ffff:10.9.9.9", "fd12:3456::1", "::1", "[::1]"]) {
    assert(trusted(peer), `${peer} is trusted`);
  }
  for (const peer of ["11.0.0.1", "192.168.1.8", "fe80::1", "::2", "", "localhost", "10.0.0.256"]) {
    assert(!trusted(peer), `${peer} is not trusted`);
  }
  assert(!ipMatcher([])("127.0.0.1"), "an empty list trusts nobody");
});

Deno.test("parseIpRange() refuses text that is not an address or CIDR range", () => {
  for (const bad of ["", "1.2.3", "1.2.3.4/33", "::1/129", "1::2::3", "abc", "1.2.3.4/8/1", "1.2.3.4/x"]) {
    assertEquals(parseIpRange(bad), null, bad);
  }
  assertEquals(parseIpRange("10.1.2.3/8")?.bits, 8);
  assertThrows(() => ipMatcher(["nope"]), Error, "not an IP address");
});

Deno.test("isPublicAddress() refuses loopback, private, link-local, ULA, multicast and unspecified addresses", () => {
  for (
    const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
    ]
  ) assertEquals(isPublicAddress(address), false, address);
  for (
    const address of [
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fe80::1",
      "fd00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
    ]
  ) {
    assertEquals(isPublicAddress(address), false, address);
  }
  for (const address of ["8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]) {
    assertEquals(isPublicAddress(address), true, address);
  }
  assertEquals(isPublicAddress("example.com"), false);
});
