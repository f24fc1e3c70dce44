// API figures (issue 9, parts 2 and 3): a public read and a signed-in read under
// autocannon -c100 -p10, each against a raw node:http server replaying the same bytes and headers.
export const name = "api";

const IN_FLIGHT = 100 * 10;

/** With 1,000 requests in flight, a slow server answers them in waves longer than the load. */
const underReads = (ours) =>
  ours.requests < 2 * IN_FLIGHT
    ? `; only ${ours.requests} answers for ${IN_FLIGHT} in flight: under-reads, try --duration=30`
    : "";

async function figure(ctx, { figure, path, headers = {}, target }) {
  const sample = await ctx.fetchRaw(path, headers);
  if (sample.status !== 200)
    throw new Error(`${path} answered ${sample.status}: ${sample.body.toString().slice(0, 300)}`);
  await ctx.load({ path, headers, duration: Math.min(2, ctx.duration) }); // warm-up (JIT, caches)
  const ours = await ctx.load({ path, headers });
  const ref = await ctx.refServer(sample.body, sample.headers);
  let reference;
  try {
    reference = await ctx.load({ url: `${ref.url}${path}`, headers });
  } finally {
    await ref.stop();
  }
  return {
    figure,
    ours: ours.rps,
    reference: reference.rps,
    ratio: ours.rps / reference.rps,
    p95: ours.p95,
    p99: ours.p99,
    non2xx: ours.non2xx + ours.errors,
    unit: "req/s",
    target,
    note: `${sample.body.length} B; ref p99 ${reference.p99?.toFixed(1)} ms${underReads(ours)}`,
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
