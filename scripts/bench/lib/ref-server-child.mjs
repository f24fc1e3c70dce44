// The reference of the API figures: a raw node:http server, in its own process, answering
// every request with the same status, headers and bytes (read from the JSON file in argv[2]:
// { port, status, headers, body (base64) }). Prints "ready" once listening.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const body = Buffer.from(spec.body, "base64");
const headers = { ...spec.headers, "content-length": String(body.length) };
const server = createServer((_req, res) => {
  res.writeHead(spec.status, headers);
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(spec.port, "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
