// API figures (issue 9, parts 2 and 3): a public read and a signed-in read under
// autocannon -c100 -p10, each against a raw node:http server replaying the same bytes and headers,
// measured in alternating rounds.
export const name = "api";

const IN_FLIGHT = 100 * 10;

/** With 1,000 requests in flight, a slow server answers them in waves longer than the load. */
const underReads = (ours) =>
  ours.requests < 2 * IN_FLIGHT
    ? `; only ${ours.requests} answers for ${IN_FLIGHT} in flight: under-reads, try --duration=30`
    : "";

const ROUNDS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Ours and the reference in turn, ROUNDS times each (both warmed up first), so that a burst of
 * other work on the shared machine weighs on both sides rather than on one: the ratio is the
 * median of the rounds' ratios, the figures and latencies those of the median round.
 */
async function figure(ctx, { figure, path, headers = {}, target }) {
  const sample = await ctx.fetchRaw(path, headers);
  if (sample.status !== 200)
    throw new Error(`${path} answered ${sample.status}: ${sample.body.toString().slice(0, 300)}`);
  const ref = await ctx.refServer(sample.body, sample.headers);
  const rounds = [];
  try {
    const warm = Math.min(2, ctx.duration);
    await ctx.load({ path, headers, duration: warm }); // warm-up (JIT, caches)
    await ctx.load({ url: `${ref.url}${path}`, headers, duration: warm });
    for (let i = 0; i < ROUNDS; i += 1) {
      const ours = await ctx.load({ path, headers });
      const reference = await ctx.load({ url: `${ref.url}${path}`, headers });
      rounds.push({ ours, reference, ratio: ours.rps / reference.rps });
    }
  } finally {
    await ref.stop();
  }
  const ratio = median(rounds.map((r) => r.ratio));
  const { ours, reference } = rounds.find((r) => r.ratio === ratio);
  const spread = rounds.map((r) => `${r.ratio.toFixed(2)}×`).join(" ");
  return {
    figure,
    ours: ours.rps,
    reference: reference.rps,
    ratio,
    p95: ours.p95,
    p99: ours.p99,
    non2xx: rounds.reduce((n, r) => n + r.ours.non2xx + r.ours.errors, 0),
    unit: "req/s",
    target,
    note: `${sample.body.length} B; ref p99 ${reference.p99?.toFixed(1)} ms; rounds ${spread}${underReads(ours)}`,
  };
}

export async function run(ctx) {
  const { learner, course } = ctx;
  return [
    await figure(ctx, {
      figure: "GET /api/v1/courses/active",
      path: "/api/v1/courses/active",
      target: "ratio>=0.85",
    }),
    await figure(ctx, {
      figure: "GET /api/v1/courses/{id}/lessons (Bearer)",
      path: `/api/v1/courses/${course.id}/lessons`,
      headers: { authorization: `Bearer ${learner.token}` },
      target: "ratio>=0.5",
    }),
  ];
}
