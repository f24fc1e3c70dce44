import { describe, expect, it } from "vitest";
import { addressPrefix, deviceOf } from "./device";

describe("device of a user agent", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox", "Linux"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge",
      "Windows",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
      "Safari",
      "iOS",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1",
      "Chrome",
      "iOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
      "Samsung Internet",
      "Android",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
      "Opera",
      "macOS",
    ],
    [
      "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Chrome",
      "ChromeOS",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      "Chrome",
      "Linux",
    ],
  ])("%s", (ua, browser, os) => {
    expect(deviceOf(ua)).toEqual({ browser, os });
  });

  it("says nothing it does not recognise", () => {
    expect(deviceOf(undefined)).toEqual({ browser: null, os: null });
    expect(deviceOf("lightMyRequest")).toEqual({ browser: null, os: null });
    expect(deviceOf("<script>".repeat(1000))).toEqual({ browser: null, os: null });
  });
});

describe("address prefix", () => {
  it.each([
    ["203.0.113.77", "203.0.113.x"],
    ["::ffff:198.51.100.9", "198.51.100.x"],
    ["2001:db8:1234:5678::9", "2001:db8:1234::/48"],
    ["2001:0db8:0000:0042:0000:8a2e:0370:7334", "2001:db8:0::/48"],
    ["::1", "0:0:0::/48"],
    ["fe80::1%eth0", "fe80:0:0::/48"],
  ])("%s → %s", (ip, prefix) => {
    expect(addressPrefix(ip)).toBe(prefix);
  });

  it("is null for what is no address", () => {
    for (const ip of [undefined, null, "", "999.1.1.1", "1.2.3", "a::b::c", "1:2:3:4:5:6:7:8:9", "x"])
      expect(addressPrefix(ip)).toBeNull();
  });
});
