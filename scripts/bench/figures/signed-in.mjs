// The learner's signed-in pages (issue 26), as a new learner meets them: Chromium (Playwright) at
// 390×844, slow 4G (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) and 4× CPU slowdown by
// the DevTools protocol, signed in, empty cache, no service worker yet. Per page, the median of
// three cold loads: the JavaScript transferred (compressed, as the server sent it), the requests
// made until the network is quiet, the largest contentful paint and the total blocking time
// (long tasks' time over 50 ms, until the network is quiet).
import { appendFileSync } from "node:fs";
import { chromium } from "playwright-core";

export const name = "signed-in";

const RUNS = 3;
// BENCH_QUIET_MS: a longer quiet window on a loaded machine (bytes and requests stay comparable)
const QUIET_MS = Number(process.env.BENCH_QUIET_MS ?? 1500);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Collects LCP and long tasks from the first paint on (registered before any script runs). */
const OBSERVE = () => {
  window.__perf = { lcp: 0, tbt: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__perf.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__perf.tbt += Math.max(0, e.duration - 50);
  }).observe({ type: "longtask", buffered: true });
};

async function coldLoad(browser, ctx, pagePath) {
  const context = await browser.newContext({
    baseURL: ctx.baseUrl,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: "block",
  });
  try {
    const page = await context.newPage();
    // signed in as the login form leaves it: the session cookies and `auth.loggedIn`
    const res = await page.request.post("/api/v1/user/authenticate", {
      data: { username: ctx.learner.email, password: ctx.learner.password },
    });
    if (!res.ok()) throw new Error(`sign-in answered ${res.status()}`);
    await page.goto("/robots.txt");
    await page.evaluate(() => localStorage.setItem("auth.loggedIn", "true"));
    await page.addInitScript(OBSERVE);

    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const requests = new Map();
    let lastActivity = Date.now();
    cdp.on("Network.requestWillBeSent", (e) => {
      if (e.request.url.startsWith("data:")) return;
      requests.set(e.requestId, {
        url: e.request.url,
        type: e.type,
        bytes: 0,
        start: Date.now(),
        initiator: e.initiator?.type,
      });
      lastActivity = Date.now();
    });
    cdp.on("Network.responseReceived", (e) => {
      const r = requests.get(e.requestId);
      if (r) r.type = e.type;
    });
    cdp.on("Network.loadingFinished", (e) => {
      const r = requests.get(e.requestId);
      if (r) {
        r.bytes = e.encodedDataLength;
        r.end = Date.now();
      }
      lastActivity = Date.now();
    });
    await page.goto(pagePath, { waitUntil: "load", timeout: 60_000 });
    while (Date.now() - lastActivity < QUIET_MS) await page.waitForTimeout(250);
    // LCP is final once the page has had input or is hidden; the figure is what it was by then
    const perf = await page.evaluate(() => window.__perf);
    const fcp = await page.evaluate(
      () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0,
    );
    const all = [...requests.values()];
    // BENCH_REQUESTS=<file>: each cold load's requests appended as a JSON line (what was fetched, why)
    if (process.env.BENCH_REQUESTS)
      appendFileSync(process.env.BENCH_REQUESTS, `${JSON.stringify({ page: pagePath, requests: all })}\n`);
    const js = all.filter((r) => r.type === "Script").reduce((sum, r) => sum + r.bytes, 0);
    const api = all.filter((r) => new URL(r.url).pathname.startsWith("/api/")).length;
    return { requests: all.length, api, js, lcp: perf.lcp, fcp, tbt: perf.tbt, url: page.url() };
  } finally {
    await context.close();
  }
}

export async function run(ctx) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  const rows = [];
  try {
    // BENCH_PAGES=course,lesson: only those pages (while working on one)
    const only = process.env.BENCH_PAGES?.split(",");
    const pages = [
      ["dashboard", "/dashboard"],
      ["course", `/courses/${ctx.course.id}`],
      ["lesson", `/courses/${ctx.course.id}/lessons/${ctx.freeLessonId}`],
      ["review", "/review"],
      ["billing", "/billing"],
      ["profile", "/profile"],
    ].filter(([label]) => !only || only.includes(label));
    for (const [label, pagePath] of pages) {
      ctx.log(`  signed in, cold: ${pagePath}`);
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await coldLoad(browser, ctx, pagePath));
      const landed = runs.find((r) => !r.url.endsWith(pagePath));
      const lcps = runs.map((r) => r.lcp).filter((lcp) => lcp > 0);
      const note = landed ? `landed on ${new URL(landed.url).pathname}` : `median of ${RUNS}`;
      rows.push(
        {
          figure: `signed in, ${label}: JavaScript (compressed)`,
          ours: median(runs.map((r) => r.js)) / 1024,
          unit: "KB",
          target: "ours<=170",
          note,
        },
        {
          figure: `signed in, ${label}: requests`,
          ours: median(runs.map((r) => r.requests)),
          unit: "",
          target: "ours<=25",
          note: `${median(runs.map((r) => r.api))} to the API`,
        },
        {
          figure: `signed in, ${label}: LCP`,
          // no entry (0): Chromium reported no largest contentful paint, not a fast one
          ours: lcps.length === RUNS ? median(lcps) / 1000 : null,
          unit: "s",
          target: "ours<=2",
          note: [
            `FCP ${(median(runs.map((r) => r.fcp)) / 1000).toFixed(2)} s`,
            lcps.length < RUNS && `${RUNS - lcps.length} run(s) without an LCP entry`,
          ]
            .filter(Boolean)
            .join(", "),
        },
        {
          figure: `signed in, ${label}: TBT`,
          ours: median(runs.map((r) => r.tbt)) / 1000,
          unit: "s",
          target: "ours<=0.2",
        },
      );
    }
  } finally {
    await browser.close();
  }
  return rows;
}
