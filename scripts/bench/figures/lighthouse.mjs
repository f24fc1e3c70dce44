// Public pages (issue 9, part 5): Lighthouse (pinned, from npm; its CLI in its own process) in
// Debian's Chromium, mobile form factor with its default simulated throttling, on the home page
// and a course page; and the gzip size of the JavaScript each one's HTML asks for before
// first paint (its scripts and modulepreloads, inline ones included).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "../lib/processes.mjs";

export const name = "lighthouse";

const CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage";
const NOT_JS = /^(application\/(ld\+)?json|importmap|speculationrules|text\/template)$/i;

function lighthouse(ctx, url, outFile) {
  const chrome = process.env.CHROME_PATH ?? "/usr/bin/chromium";
  const cli = path.join(root, "node_modules/lighthouse/cli/index.js");
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        cli,
        url,
        "--output=json",
        `--output-path=${outFile}`,
        "--only-categories=performance,seo",
        `--chrome-flags=${CHROME_FLAGS}`,
        `--port=${ctx.port()}`,
        "--quiet",
      ],
      { cwd: root, env: { ...process.env, CHROME_PATH: chrome }, stdio: ["ignore", "ignore", "pipe"] },
    );
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.once("exit", (code) =>
      code === 0 && existsSync(outFile)
        ? resolve(JSON.parse(readFileSync(outFile, "utf8")))
        : reject(new Error(`lighthouse exited ${code}: ${err.slice(-1000)}`)),
    );
  });
}

/** `load`: the machine's 1-minute load average when the run ended (Lighthouse scales its simulated CPU by what it observes). */
function pageRows(label, lhr, load) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? null;
  const score = (id) =>
    lhr.categories[id]?.score === null ? null : Math.round(lhr.categories[id].score * 100);
  const error = lhr.runtimeError?.message;
  const note = [`load average ${load.toFixed(1)}`, error && `runtime error: ${error}`]
    .filter(Boolean)
    .join(", ");
  const lcp = audit("largest-contentful-paint");
  const tbt = audit("total-blocking-time");
  return [
    {
      figure: `${label}: Lighthouse performance`,
      ours: score("performance"),
      unit: "/100",
      target: "ours>=95",
      note,
    },
    { figure: `${label}: LCP`, ours: lcp === null ? null : lcp / 1000, unit: "s", target: "ours<=1.5" },
    { figure: `${label}: CLS`, ours: audit("cumulative-layout-shift"), unit: "", target: "ours<=0.05" },
    {
      figure: `${label}: TBT`,
      ours: tbt === null ? null : tbt / 1000,
      unit: "s",
      note: `FCP ${((audit("first-contentful-paint") ?? 0) / 1000).toFixed(1)} s`,
    },
    { figure: `${label}: Lighthouse SEO`, ours: score("seo"), unit: "/100", target: "ours>=100" },
  ];
}

/**
 * JavaScript the page starts with: script src, modulepreload, inline scripts, and the entry and
 * chunks that its boot script (`#boot`) asks for once the page has painted. Those are counted
 * although they no longer come before the first paint: the budget keeps bounding what a page
 * downloads and runs before it is interactive.
 */
export async function javascriptBeforePaint(ctx, pagePath) {
  const html = (await ctx.fetchRaw(pagePath)).body.toString();
  const urls = new Set();
  let inline = "";
  const boot = /<script type="application\/json" id="boot">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (boot) {
    const { entry, modules } = JSON.parse(boot);
    for (const file of [entry, ...modules]) urls.add(file);
  }
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1];
    const type = /\btype=["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    if (type && NOT_JS.test(type)) continue;
    const src = /\bsrc=["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    if (src) urls.add(src);
    else inline += m[2];
  }
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    if (!/\brel=["']?modulepreload/i.test(m[0])) continue;
    const href = /\bhref=["']?([^"'\s>]+)/i.exec(m[0])?.[1];
    if (href) urls.add(href);
  }
  let gzip = inline ? gzipSync(inline, { level: 9 }).length : 0;
  let raw = inline.length;
  for (const src of urls) {
    const url = new URL(src, `${ctx.baseUrl}${pagePath}`);
    if (url.origin !== new URL(ctx.baseUrl).origin) continue;
    const res = await ctx.fetchRaw(`${url.pathname}${url.search}`);
    if (res.status !== 200) throw new Error(`${url.pathname} answered ${res.status}`);
    raw += res.body.length;
    gzip += gzipSync(res.body, { level: 9 }).length;
  }
  return { files: urls.size, inline: inline.length > 0, raw, gzip };
}

export async function run(ctx) {
  const rows = [];
  const pages = [
    ["home page", "/"],
    ["course page", `/courses/${ctx.course.id}`],
  ];
  for (const [label, pagePath] of pages) {
    const js = await javascriptBeforePaint(ctx, pagePath);
    rows.push({
      figure: `${label}: JavaScript the page starts with (gzip)`,
      ours: js.gzip / 1024,
      unit: "KB",
      target: "ours<=150",
      note: `${js.files} file(s)${js.inline ? " + inline" : ""}, ${(js.raw / 1024).toFixed(0)} KB uncompressed`,
    });
  }
  for (const [label, pagePath] of pages) {
    ctx.log(`  Lighthouse ${pagePath}`);
    const lhr = await lighthouse(
      ctx,
      `${ctx.baseUrl}${pagePath}`,
      path.join(ctx.tmpDir, `lighthouse-${rows.length}.json`),
    );
    rows.push(...pageRows(label, lhr, os.loadavg()[0]));
  }
  return rows;
}
