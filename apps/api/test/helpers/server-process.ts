import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { apiRoot } from "../../src/paths";
import { toneMp3 } from "./learning";

/**
 * The built server (dist/server.js) and operations commands (dist/ops.js) run as real processes:
 * what an operator runs, signals and sockets included. `npm test` builds before the API suite;
 * a lone `vitest run` builds the API here when its sources changed since.
 */
const repoRoot = path.resolve(apiRoot, "../..");
let built = false;

async function ensureApiBuilt(): Promise<void> {
  if (built) return;
  const stateModule = pathToFileURL(path.join(repoRoot, "scripts/build-state.mjs")).href;
  const { state, targets } = (await import(stateModule)) as {
    state(root: string, target: unknown): string;
    targets: { api: unknown };
  };
  if (state(repoRoot, targets.api) !== "fresh") {
    const result = spawnSync("npm", ["run", "build", "-w", "@parlons/api"], {
      cwd: repoRoot,
      stdio: "inherit",
    });
    if (result.status !== 0) throw new Error("the API build failed");
  }
  built = true;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** The exit code once the process has ended (null: killed by a signal). */
  exited: Promise<number | null>;
  /** Sends the signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  output(): string;
}

export const ADMIN_LOGIN = { email: "admin@ops.test", password: "Admin-pass1!" };

/** Starts dist/server.js on `dataDir` and waits until /api/health answers 200. */
export async function startServer(opts: {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  await ensureApiBuilt();
  const url = `http://127.0.0.1:${opts.port}`;
  // a server left on the port (an interrupted run) would answer the health check in our stead
  const taken = await fetch(`${url}/api/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${opts.port} is already taken by another server`);
  const child = spawn(process.execPath, [path.join(apiRoot, "dist/server.js")], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      PUBLIC_URL: url,
      ADMIN_EMAIL: ADMIN_LOGIN.email,
      ADMIN_PASSWORD: ADMIN_LOGIN.password,
      RATE_LIMIT_AUTH_MAX: "1000",
      WEB_DIST: path.join(opts.dataDir, "..", "no-web"),
      LOG_LEVEL: "warn",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  // never outlive the test run, even when it is interrupted or times out
  const orphanGuard = () => child.kill("SIGKILL");
  process.once("exit", orphanGuard);
  void exited.then(() => process.off("exit", orphanGuard));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    output: () => output,
  };
}

/** Runs an operations command (dist/ops.js) with `env`; resolves with its exit status and output. */
export async function runOps(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; output: string }> {
  await ensureApiBuilt();
  const child = spawn(process.execPath, [path.join(apiRoot, "dist/ops.js"), ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { status, output };
}

/** A small JSON client of a running server. */
export function apiClient(url: string) {
  async function call(method: string, route: string, opts: { token?: string; body?: unknown } = {}) {
    const res = await fetch(`${url}/api${route}`, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: test code reads the JSON answers it knows the shape of
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }
  return {
    call,
    async login(email: string, password: string): Promise<string> {
      const res = await call("POST", "/v1/user/authenticate", { body: { username: email, password } });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.text}`);
      return res.json.data.accessToken as string;
    },
  };
}

export const LEARNER_LOGIN = { email: "learner@ops.test", password: "Learner-pass1!" };

/**
 * What an installation worth keeping holds, made through the API of the server at `url` (seeded
 * with ADMIN_LOGIN and the demo): a learner, an uploaded audio, a course whose free lesson the
 * learner played to 7.5 s and marked done, and a premium plan paid through the demo checkout.
 */
export async function makeLearnerData(url: string) {
  const api = apiClient(url);
  type Answer = Awaited<ReturnType<typeof api.call>>;
  const expectStatus = (res: Answer, status: number, what: string): Answer => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res;
  };
  const admin = await api.login(ADMIN_LOGIN.email, ADMIN_LOGIN.password);
  expectStatus(
    await api.call("POST", "/v1/users/add", { token: admin, body: LEARNER_LOGIN }),
    201,
    "add user",
  );
  const form = new FormData();
  form.append("type", "audio");
  form.append("file", new Blob([new Uint8Array(toneMp3())], { type: "audio/mpeg" }), "tone.mp3");
  const upload = await fetch(`${url}/api/v1/medias/file/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${admin}` },
    body: form,
  });
  if (upload.status !== 200) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  const audio = ((await upload.json()) as { data: { file_path: string } }).data.file_path;
  const course = expectStatus(
    await api.call("POST", "/v1/courses", {
      token: admin,
      body: { title_fr: "Sauvegarde", title_en: "Backup", target_language: "es", level: "A1", active: true },
    }),
    201,
    "course",
  );
  const courseId = course.json.data.course.id as string;
  const lesson = expectStatus(
    await api.call("POST", `/v1/courses/${courseId}/lessons`, {
      token: admin,
      body: { title_fr: "Bonjour", title_en: "Hello", audio, free: true },
    }),
    201,
    "lesson",
  );
  const lessonId = lesson.json.data.lesson.id as string;

  const token = await api.login(LEARNER_LOGIN.email, LEARNER_LOGIN.password);
  expectStatus(
    await api.call("POST", `/v1/courses/${courseId}/lessons/done-customer`, {
      token,
      body: { lesson_id: lessonId, played: true, last_position: 7.5, done: true },
    }),
    200,
    "progress",
  );
  const plans = await api.call("GET", "/v1/plans/active");
  const premium = (plans.json.data.plans as { id: string; amount: number }[]).find((p) => p.amount > 0);
  if (!premium) throw new Error("the demo seed has no premium plan");
  const started = expectStatus(
    await api.call("POST", "/v1/customer-plan", { token, body: { plan_id: premium.id } }),
    201,
    "checkout",
  );
  const customerPlanId = started.json.data.customerPlan.id as string;
  expectStatus(
    await api.call("POST", `/v1/customer-plan/demo/${customerPlanId}/approve`, { token }),
    200,
    "payment",
  );
  return { api, admin, token, courseId, lessonId };
}

interface PlayedLesson {
  id: string;
  progress: { done: boolean; last_position: number; play_count: number } | null;
  audio: { url: string } | null;
}

/** The played lesson as the learner sees it on the server at `url`, and its audio's bytes. */
export async function playedLesson(url: string, token: string, courseId: string, lessonId: string) {
  const list = await apiClient(url).call("GET", `/v1/courses/${courseId}/lessons`, { token });
  if (list.status !== 200) throw new Error(`lessons: ${list.status} ${list.text}`);
  const lesson = (list.json.data.lessons as PlayedLesson[]).find((l) => l.id === lessonId);
  const audio = lesson?.audio ? await fetch(new URL(lesson.audio.url, url)) : undefined;
  return {
    progress: lesson?.progress,
    audioStatus: audio?.status,
    audio: audio ? Buffer.from(await audio.arrayBuffer()) : undefined,
  };
}
