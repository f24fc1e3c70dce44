/**
 * What a learner recognises of a session: the browser and system its user agent names, and the
 * network of its address. A compact parser of our own rather than a package (docs/decisions.md,
 * "Sessions people can see"): only families, no versions, so a browser update is not a new device.
 */

/** First match wins: the browsers that also say "Chrome" or "Safari" come before those. */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera|OPiOS)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bYaBrowser\//, "Yandex"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(HeadlessChrome|Chrome|CriOS)\//, "Chrome"],
  [/\bChromium\//, "Chromium"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\b(iPhone|iPad).*AppleWebKit\//, "Safari"],
  [/\bcurl\//, "curl"],
];

const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bWindows Phone\b/, "Windows Phone"],
  [/\bWindows\b/, "Windows"],
  [/\biPad\b/, "iPadOS"],
  [/\b(iPhone|iPod)\b/, "iOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bAndroid\b/, "Android"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\b(Ubuntu|Fedora|Debian|Linux|X11)\b/, "Linux"],
];

export interface Device {
  browser: string | null;
  os: string | null;
}

const first = (ua: string, table: ReadonlyArray<readonly [RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(ua))?.[1] ?? null;

export function deviceOf(userAgent: string | null | undefined): Device {
  const ua = (userAgent ?? "").slice(0, 300);
  return { browser: first(ua, BROWSERS), os: first(ua, SYSTEMS) };
}

/** Browser and system as one key ("Firefox/Linux"): what "the same device" means for the alert. */
export const deviceKey = (device: Device) => `${device.browser ?? "?"}/${device.os ?? "?"}`;

/** The eight groups of an IPv6 address (with an embedded IPv4 tail), or null when it is not one. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.split("%")[0] ?? "";
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const bytes = v4[1].split(".").map(Number);
    if (bytes.some((b) => b > 255)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(":") : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The network an address belongs to, never the address: an IPv4 /24 ("203.0.113.x"), an IPv6
 * /48 ("2001:db8:1::/48"); an IPv4 address mapped into IPv6 counts as IPv4. Null when unknown.
 */
export function addressPrefix(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const v4 = IPV4.exec(ip.startsWith("::ffff:") ? ip.slice(7) : ip);
  if (v4) {
    const bytes = v4.slice(1, 4).map(Number);
    return bytes.every((b) => b <= 255) && Number(v4[4]) <= 255 ? `${bytes.join(".")}.x` : null;
  }
  const groups = ipv6Groups(ip);
  if (!groups) return null;
  return `${groups
    .slice(0, 3)
    .map((g) => g.toString(16))
    .join(":")}::/48`;
}
