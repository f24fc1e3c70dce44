// Imported first by `npm start` (scripts/start.mjs), before anything else is loaded: gives V8 type
// feedback for every branch of Node's own `process.nextTick` while it is still cold, so that the
// versions V8 optimises it into cover what the application will send it.
//
// Why: Node's HTTP server calls `nextTick` several times per response. In the Parlons process,
// whose packages reach its rarer branches (four or more arguments, new value kinds, an empty
// queue) only after it has been optimised, V8 deoptimised it again and again and often settled on
// code that builds each tick object (a literal with computed symbol keys) through its runtime:
// `perf` showed 15 % of the server's samples in `Runtime_DefineKeyedOwnPropertyInLiteral`,
// `JSObject::MigrateToMap` and their kind under `nextTick`, none in a bare `node:http` server.
// With this module first, those samples are gone and the in-memory reads answer as many requests
// a second as the bare server (0.82–0.93× before, 1.04–1.07× after: docs/performance.md, "A warmed
// process.nextTick"). Every arity, mixed value kinds, and rounds that let the queue empty matter:
// a first try with small integers only and no empty queue helped one start in two, and the same
// calls made once the application had loaded made things worse.
const noop = () => {};
const values = [1, 2.5, "a", {}, [], null, undefined, noop, -1, 2 ** 40];
for (let round = 0; round < 40; round++) {
  for (let i = 0; i < 10; i++) {
    const v = values[(i + round) % values.length];
    const w = values[(i * 3 + round) % values.length];
    process.nextTick(noop);
    process.nextTick(noop, v);
    process.nextTick(noop, v, w);
    process.nextTick(noop, w, v, i);
    process.nextTick(noop, v, w, i, round);
    process.nextTick(noop, w, v, i, round, v);
  }
  // the queue empties between rounds: its "first tick scheduled" branch gets feedback too
  await new Promise((resolve) => setImmediate(resolve));
}
