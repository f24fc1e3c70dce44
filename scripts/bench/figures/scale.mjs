// Figures at scale (issue 9, part 7): the staff lists and the learner's dashboard on the data of
// `npm run bench:seed`, 20 concurrent clients, p95 per figure. PostgreSQL only.
//
//   npm run bench:seed                                   once, on the database of DATABASE_URL
//   DATABASE_URL=postgres://… npm run bench -- --only=scale
// Or alone, against a server already running on a seeded database (a simpler load: fetch in
// this process, so slower figures than autocannon's):
//   BASE_URL=http://127.0.0.1:3701 DATABASE_URL=… ONLY=users node scripts/bench/figures/scale.mjs
// With the bench, SCALE_ONLY=<regex> measures only the figures it matches.

export const name = "scale";
export const needs = "postgres";

const CONNECTIONS = 20;
const STAFF_TARGET_MS = 50;
const DASHBOARD_TARGET_MS = 30;
/** The accounts `npm run bench:seed` writes (apps/api/scripts/bench-seed.ts). */
const PASSWORD = "Bench-parlons-1!";
const STAFF = "staff1@bench.parlons.test";
const LEARNER = "learner1@bench.parlons.test";
/** The seed's first course (25 lessons). */
const FIRST_COURSE = "md5:bench-course-1";

async function signIn(baseUrl, username) {
  const res = await fetch(`${baseUrl}/api/v1/user/authenticate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (!res.ok) return null;
  return (await res.json()).data.accessToken;
}

async function md5Uuid(text) {
  const { createHash } = await import("node:crypto");
  const hex = createHash("md5").update(text).digest("hex");
  // the seed's ids: the md5 with the version and variant digits of a UUID v4
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** Monday 00:00 UTC of this week, as the dashboard sends it. */
function weekStart() {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString();
}

/** The requests measured: [figure, method, path, body, who]. */
async function requests() {
  const course = await md5Uuid(FIRST_COURSE.slice(4));
  const users = (body) => ["POST", "/api/v1/users", { pageSize: 20, ...body }];
  const customers = (body) => ["POST", "/api/v1/users/customers", { pageSize: 20, ...body }];
  const mail = (body) => ["POST", "/api/v1/send-mail/pagination", { pageSize: 20, ...body }];
  return [
    ["users, first page", ...users({ page: 1 }), "staff"],
    ["users, search 'martin' + ACTIVE", ...users({ page: 1, search: "martin", status: "ACTIVE" }), "staff"],
    ["users, page 500", ...users({ page: 500 }), "staff"],
    ["customers, first page", ...customers({ page: 1 }), "staff"],
    ["customers, search 'learner4242'", ...customers({ page: 1, search: "learner4242" }), "staff"],
    ["customers, page 500", ...customers({ page: 500 }), "staff"],
    ["courses, first page", "GET", "/api/v1/courses?page=1&pageSize=20", null, "staff"],
    ["courses, search 'spanish' + B1", "GET", "/api/v1/courses?search=spanish&level=B1", null, "staff"],
    ["courses, page 90", "GET", "/api/v1/courses?page=90&pageSize=20", null, "staff"],
    ["lessons of a course (staff)", "GET", `/api/v1/courses/${course}/lessons`, null, "staff"],
    ["sent mail, first page", ...mail({ page: 1 }), "staff"],
    [
      "sent mail, SENT + search 'premium'",
      ...mail({ page: 1, filters: { status: "SENT", search: "premium" } }),
      "staff",
    ],
    ["sent mail, page 10", ...mail({ page: 10 }), "staff"],
    ["dashboard: /v1/user/me", "GET", "/api/v1/user/me", null, "learner"],
    [
      "dashboard: courses in progress",
      "GET",
      `/api/v1/courses/customer/progress?week_start=${encodeURIComponent(weekStart())}`,
      null,
      "learner",
    ],
    [
      "dashboard: my bookings",
      "GET",
      "/api/v1/registrations/mine?status=BOOKED&upcoming=true&pageSize=100",
      null,
      "learner",
    ],
    ["dashboard: notifications", "GET", "/api/v1/notifications?pageSize=10", null, "learner"],
  ];
}

/** Fallback load when run alone: `connections` clients in a loop for `duration` seconds. */
async function fetchLoad({
  url,
  method = "GET",
  headers = {},
  body,
  connections = CONNECTIONS,
  duration = 5,
}) {
  const latencies = [];
  let non2xx = 0;
  const end = Date.now() + duration * 1000;
  const client = async () => {
    while (Date.now() < end) {
      const t = performance.now();
      const res = await fetch(url, { method, headers, body });
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      if (res.status < 200 || res.status > 299) non2xx += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { rps: latencies.length / duration, p95: at(0.95), p99: at(0.99), non2xx };
}

const skipped = (note) => [
  { figure: "scale: staff lists and dashboard", ours: null, reference: null, ratio: null, note },
];
const round = (n) => (typeof n === "number" ? Math.round(n * 10) / 10 : n);

export async function run(ctx) {
  if (!ctx.databaseUrl) return skipped("skipped: PostgreSQL only (set DATABASE_URL)");
  const staff = await signIn(ctx.baseUrl, STAFF);
  const learner = await signIn(ctx.baseUrl, LEARNER);
  if (!staff || !learner) return skipped("skipped: no seeded data (run npm run bench:seed on this database)");
  const tokens = { staff, learner };
  const rows = [];
  // SCALE_ONLY=<regex>: only the figures it matches (a quicker loop while working on one list)
  const pattern = ctx.only ?? process.env.SCALE_ONLY;
  const only = pattern ? new RegExp(pattern, "i") : null;
  for (const [figure, method, path, body, who] of await requests()) {
    if (only && !only.test(figure)) continue;
    const headers = { authorization: `Bearer ${tokens[who]}` };
    if (body) headers["content-type"] = "application/json";
    const opts = {
      url: `${ctx.baseUrl}${path}`,
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
      connections: CONNECTIONS,
      pipelining: 1,
    };
    // one request first: a figure on an error page would measure nothing
    const probe = await fetch(opts.url, { method, headers, body: opts.body });
    if (!probe.ok) throw new Error(`${figure}: ${method} ${path} answered ${probe.status}`);
    const bytes = Buffer.from(await probe.arrayBuffer());
    await ctx.load({ ...opts, duration: 1 }); // warm-up (JIT, caches)
    const r = await ctx.load(opts);
    // the reference: a raw node:http server answering the same bytes, under the same load, now
    let ref = null;
    if (ctx.refServer) {
      const kept = [...probe.headers.entries()].filter(([k]) => k !== "content-encoding");
      const server = await ctx.refServer(bytes, kept);
      try {
        ref = await ctx.load({ ...opts, url: `${server.url}${path}` });
      } finally {
        await server.stop();
      }
    }
    rows.push({
      figure: `scale: ${figure}`,
      ours: round(r.rps),
      reference: ref ? round(ref.rps) : null,
      ratio: null,
      p95: round(r.p95),
      p99: round(r.p99),
      non2xx: (r.non2xx ?? 0) + (r.errors ?? 0),
      unit: "req/s",
      target: `p95<=${who === "staff" ? STAFF_TARGET_MS : DASHBOARD_TARGET_MS}`,
      note: `${CONNECTIONS} clients; ${bytes.length} B${ref ? `; raw node:http p95 ${round(ref.p95)} ms` : ""}`,
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseUrl = process.env.BASE_URL ?? "http://127.0.0.1:3000";
  const duration = Number(process.env.DURATION ?? 5);
  const rows = await run({
    baseUrl,
    databaseUrl: process.env.DATABASE_URL,
    load: (opts) => fetchLoad({ ...opts, duration }),
    only: process.env.ONLY,
    log: console.log,
  });
  console.table(
    rows.map(({ figure, ours, p95, p99, non2xx, target }) => ({ figure, ours, p95, p99, non2xx, target })),
  );
}
