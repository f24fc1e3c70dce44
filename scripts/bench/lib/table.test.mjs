// The pure parts of `npm run bench` (no server, no timing): targets, table, comparison.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCompare, formatTable, normaliseRow, percentile, targetMet } from "./table.mjs";

test("a target is checked against the row, null when it cannot be", () => {
  assert.equal(targetMet({ ratio: 0.9, target: "ratio>=0.85" }), true);
  assert.equal(targetMet({ ratio: 0.8, target: "ratio>=0.85" }), false);
  assert.equal(targetMet({ ours: 2900, target: "ours<=3000" }), true);
  assert.equal(targetMet({ p95: 51, target: "p95 <= 50" }), false);
  assert.equal(targetMet({ ratio: null, target: "ratio>=0.85" }), null);
  assert.equal(targetMet({ ours: 1, target: null }), null);
  assert.equal(targetMet({ ours: 1, target: "whatever" }), null);
});

test("a row gets every field, its ratio and whether it meets its target", () => {
  const row = normaliseRow({ figure: "x", ours: 450, reference: 900, unit: "req/s", target: "ratio>=0.5" });
  assert.equal(row.ratio, 0.5);
  assert.equal(row.met, true);
  assert.equal(row.p95, null);
  assert.equal(row.note, null);
  assert.equal(normaliseRow({ figure: "y", ours: 1, reference: 0 }).ratio, null);
});

test("the table shows units, ratio, target and met", () => {
  const table = formatTable([
    normaliseRow({
      figure: "GET /a",
      ours: 12345.6,
      reference: 20000,
      p99: 12.345,
      non2xx: 0,
      unit: "req/s",
      target: "ratio>=0.85",
    }),
    normaliseRow({ figure: "start", ours: 2.5, unit: "s", target: "ours<=3", note: "fresh" }),
  ]);
  const lines = table.split("\n");
  assert.equal(lines.length, 4);
  assert.match(lines[0], /^\| figure +\| ours +\| reference/);
  assert.match(lines[2], /\| GET \/a +\| 12,346 req\/s \| 20,000 req\/s \| 0\.62× .*\| ratio ≥ 0\.85 \| NO /);
  assert.match(lines[3], /\| start +\| 2\.50 s +\| – .*\| ours ≤ 3 +\| yes +\| fresh/);
  // every line is as wide as the header
  assert.equal(new Set(lines.map((l) => l.length)).size, 1);
});

test("two runs compare side by side, figures missing on one side included", () => {
  const a = {
    commit: "aaa",
    database: "pglite",
    rows: [normaliseRow({ figure: "f", ours: 100, reference: 200, unit: "req/s", target: "ratio>=0.85" })],
  };
  const b = {
    commit: "bbb",
    database: "pglite",
    rows: [
      normaliseRow({ figure: "f", ours: 190, reference: 200, unit: "req/s", target: "ratio>=0.85" }),
      normaliseRow({ figure: "g", ours: 1, unit: "s" }),
    ],
  };
  const lines = formatCompare(a, b).split("\n");
  assert.match(lines[0], /ours aaa pglite .* ours bbb pglite/);
  assert.match(
    lines[2],
    /\| f +\| 100 req\/s +\| 0\.50× .*\| 190 req\/s +\| 0\.95× .*\| 90 % +\| ratio ≥ 0\.85 \| NO → yes \|/,
  );
  assert.match(lines[3], /\| g +\| – /);
});

test("percentile is nearest-rank", () => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.equal(percentile(values, 95), 95);
  assert.equal(percentile(values, 99), 99);
  assert.equal(percentile([], 99), null);
});
