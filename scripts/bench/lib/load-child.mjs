// Runs autocannon in its own process (spawned by load.mjs) and prints one JSON line:
// { rps, p95, p99, non2xx, errors, timeouts, requests, bytesPerSec }.
// Options come as JSON in argv[2]: url, method, headers, body, connections, pipelining,
// duration (s), range ({ size, chunk }: Range requests at rotating offsets). SIGINT stops the
// run early and prints the figures of what was sent until then.
import autocannon from "autocannon";
import { percentile } from "./table.mjs";

const opts = JSON.parse(process.argv[2]);
const requests = [];
if (opts.range) {
  const { size, chunk } = opts.range;
  const slots = Math.max(1, Math.floor(size / chunk));
  let next = 0;
  requests.push({
    setupRequest(req) {
      // rotating offsets: every chunk of the file in turn, shifted by a prime so that reads are not aligned
      const start = ((next++ % slots) * chunk + (next % 7) * 4093) % Math.max(1, size - chunk);
      return { ...req, headers: { ...req.headers, range: `bytes=${start}-${start + chunk - 1}` } };
    },
  });
}

const latencies = [];
const instance = autocannon(
  {
    url: opts.url,
    method: opts.method ?? "GET",
    headers: opts.headers ?? {},
    body: opts.body,
    connections: opts.connections ?? 100,
    pipelining: opts.pipelining ?? 1,
    duration: opts.duration ?? 10,
    requests: requests.length ? requests : undefined,
  },
  (err, result) => {
    if (err) {
      console.error(err);
      process.exit(1);
    }
    const seconds = result.duration || opts.duration;
    process.stdout.write(
      `${JSON.stringify({
        rps: result.requests.total / seconds,
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        requests: result.requests.total,
        bytesPerSec: result.throughput.total / seconds,
      })}\n`,
    );
    process.exit(0);
  },
);
instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
process.on("SIGINT", () => instance.stop());
