// nginx from Debian as a reference (and as the front of Parlons for the X-Accel-Redirect figure):
// a config written into a temp dir, `nginx -p <dir> -c <conf>` in its own process group, stopped after.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sleep, stopGroup } from "./processes.mjs";

export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p));

export function nginxVersion() {
  if (!NGINX) return null;
  // nginx -v writes to stderr: "nginx version: nginx/1.22.1"
  const out = spawnSync(NGINX, ["-v"], { encoding: "utf8" });
  return `${out.stdout}${out.stderr}`.replace(/^nginx version: /, "").trim() || null;
}

/**
 * Starts nginx with `server` as the body of its http { server { … } } block (after `upstream`), listening on
 * 127.0.0.1:port. One worker (Parlons is one process too), sendfile on, no access log.
 * Resolves { url, stop() } once `probePath` answers (any status below 500).
 */
export async function startNginx({ dir, port, server, upstream = "", probePath = "/" }) {
  if (!NGINX) throw new Error("nginx is not installed (apt-get install nginx)");
  mkdirSync(dir, { recursive: true });
  const conf = path.join(dir, "nginx.conf");
  // workers started by root run as nobody unless told otherwise; they must read DATA_DIR/media
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  writeFileSync(
    conf,
    `${user}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  types { audio/mpeg mp3; }
  default_type application/octet-stream;
${upstream}
  server {
    listen 127.0.0.1:${port};
${server}
  }
}
`,
  );
  const child = spawn(NGINX, ["-p", dir, "-c", conf, "-e", path.join(dir, "error.log")], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    try {
      const res = await fetch(`${url}${probePath}`, { headers: { range: "bytes=0-0" } });
      await res.arrayBuffer();
      if (res.status < 500) return { url, stop: () => stopGroup(child) };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stopGroup(child);
  throw new Error(`nginx did not answer on ${url}: ${stderr}`);
}
