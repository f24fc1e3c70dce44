import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../../../docs/api/openapi";
import {
  clientTypesPath,
  clientTypesText,
  docsDir,
  documentPath,
  documentText,
} from "../scripts/openapi-artifacts";
import { ADMIN, buildTestApp, type TestContext } from "./helpers/build";

const run = promisify(execFile);
const root = path.resolve(docsDir, "../..");
const resolvePackage = (name: string) => fileURLToPath(import.meta.resolve(name));

let t: TestContext;
let document: unknown;
beforeAll(async () => {
  t = await buildTestApp();
  document = t.app.swagger();
});
afterAll(async () => {
  await t.close();
});

describe("the OpenAPI document", () => {
  it("is the one in docs/api (run `npm run docs:api` after changing a route)", async () => {
    expect(
      documentText(document) === readFileSync(documentPath, "utf8"),
      "docs/api/openapi.json is stale",
    ).toBe(true);
    const types = await clientTypesText(document);
    expect(types === readFileSync(clientTypesPath, "utf8"), "docs/api/openapi.d.ts is stale").toBe(true);
  });

  it("names, summarises, secures and tags every operation", () => {
    const doc = document as {
      paths: Record<
        string,
        Record<string, { operationId?: string; summary?: string; tags?: string[]; security?: unknown[] }>
      >;
    };
    const ids = new Set<string>();
    for (const [url, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${url}`;
        expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
        expect(ids.has(op.operationId ?? ""), `${where}: ${op.operationId} twice`).toBe(false);
        ids.add(op.operationId ?? "");
        expect(op.summary, where).toBeTruthy();
        expect(op.tags?.length, where).toBeGreaterThan(0);
        expect(Array.isArray(op.security), where).toBe(true);
      }
    }
    expect(doc.paths["/api/v1/courses/active"]?.get?.operationId).toBe("listActiveCourses");
    expect(doc.paths["/api/v1/courses/active"]?.get?.security).toEqual([]);
    expect(doc.paths["/api/v1/courses"]?.post?.security).toEqual([{ bearer: [] }]);
  });

  // a CLI and a compiler run as child processes: generous time on a busy machine
  it("passes Redocly's recommended rules with no error", { timeout: 120_000 }, async () => {
    const cli = path.join(path.dirname(resolvePackage("@redocly/cli/package.json")), "bin/cli.js");
    const { stdout } = await run(process.execPath, [cli, "lint", documentPath, "--format=json"], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
    const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    expect(report.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it("gives openapi-typescript a client that type-checks", { timeout: 180_000 }, async () => {
    // the generated types and a use of them, compiled alone with strict checks of the .d.ts too
    // under node_modules (ignored by git and Biome), where openapi-fetch and typescript resolve
    const cache = path.join(root, "node_modules/.cache");
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(path.join(cache, "openapi-client-check-"));
    try {
      writeFileSync(path.join(dir, "openapi.d.ts"), await clientTypesText(document));
      writeFileSync(
        path.join(dir, "use.ts"),
        [
          'import createClient from "openapi-fetch";',
          'import type { paths } from "./openapi";',
          'const client = createClient<paths>({ baseUrl: "http://localhost" });',
          "export async function titles(): Promise<string[]> {",
          '  const { data } = await client.GET("/api/v1/courses/active", { params: { query: { page: 1 } } });',
          "  return (data?.data.courses ?? []).map((c) => c.title_en);",
          "}",
          "export async function wrong() {",
          "  // @ts-expect-error: no such route",
          '  await client.GET("/api/v1/no-such-route");',
          "  // @ts-expect-error: the body needs a password",
          '  await client.POST("/api/v1/user/authenticate", { body: { username: "a" } });',
          "}",
          "",
        ].join("\n"),
      );
      writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            target: "es2023",
            lib: ["es2023", "dom"],
            module: "esnext",
            moduleResolution: "bundler",
            types: [],
          },
          files: ["use.ts"],
        }),
      );
      const tsc = path.join(path.dirname(resolvePackage("typescript/package.json")), "bin/tsc");
      const result = await run(process.execPath, [tsc, "-p", dir], { cwd: dir }).catch(
        (err: { stdout?: string }) => ({ stdout: err.stdout ?? String(err) }),
      );
      expect(result.stdout).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a client generated from the document", () => {
  it("calls the running API", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });

    const refused = await client.POST("/api/v1/user/authenticate", {
      body: { username: ADMIN.email, password: "not the password" },
    });
    expect(refused.response.status).toBe(401);
    expect(refused.error?.code).toBe("INVALID_CREDENTIALS");

    const signedIn = await client.POST("/api/v1/user/authenticate", {
      body: { username: ADMIN.email, password: ADMIN.password },
    });
    // the admin has no second factor here: the answer carries tokens, not the second step
    const outcome = signedIn.data?.data;
    const token = outcome && "accessToken" in outcome ? outcome.accessToken : undefined;
    expect(token).toBeTruthy();

    const me = await client.GET("/api/v1/user/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me.data?.data.data.email).toBe(ADMIN.email);
    expect(Array.isArray(me.data?.data.data.modules)).toBe(true);

    const created = await client.POST("/api/v1/courses", {
      headers: { authorization: `Bearer ${token}` },
      body: {
        title_fr: "Le français des voyages",
        title_en: "French for travel",
        target_language: "fr",
        level: "A2",
        active: true,
      },
    });
    expect(created.response.status).toBe(201);
    const slug = created.data?.data.course.slug;

    const list = await client.GET("/api/v1/courses/active", { params: { query: { page: 1 } } });
    expect(list.data?.data.courses.map((c) => c.slug)).toContain(slug);

    const missing = await client.GET("/api/v1/courses/single/{id}", {
      params: { path: { id: "no-such-course" } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("NOT_FOUND");
  });
});
