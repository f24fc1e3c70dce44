import Fastify, { type FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { principal } from "../../test/helpers/principal";
import accessPlugin, { access, type RouteAccess } from "./access";
import errorsPlugin from "./errors";

/** A bare app whose "auth" knows two tokens: `customer` and `staff` (with events.manage). */
async function bareApp(routes: (app: FastifyInstance) => void) {
  const app = Fastify();
  // as in the app: the error responses the routes document are zod schemas
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorsPlugin);
  await app.register(
    fp(
      async (instance) => {
        instance.decorateRequest("principal", null);
        const identify = async (request: import("fastify").FastifyRequest) => {
          const token = request.headers.authorization?.replace("Bearer ", "");
          if (token === "customer") request.principal = principal("c", ["events.book"]);
          if (token === "staff") request.principal = principal("s", ["events.manage"]);
        };
        instance.decorate("identify", identify);
        instance.decorate("authenticate", async (request: import("fastify").FastifyRequest) => {
          await identify(request);
          if (!request.principal)
            throw new (await import("../lib/errors")).AppError(
              401,
              "UNAUTHENTICATED",
              "Authentication required",
            );
        });
      },
      { name: "auth" },
    ),
  );
  const table: RouteAccess[] = [];
  await app.register(async (scope) => {
    await scope.register(accessPlugin, { table });
    routes(scope);
  });
  return { app, table };
}

describe("access plugin", () => {
  it("refuses to start when a route has no operationId, or one given twice", async () => {
    await expect(
      bareApp((scope) => {
        scope.get("/unnamed", { config: { access: access.public } }, async () => ({}));
      }),
    ).rejects.toThrow(/GET \/unnamed has no operationId/);
    await expect(
      bareApp((scope) => {
        for (const url of ["/a", "/b"])
          scope.get(
            url,
            { config: { access: access.public }, schema: { operationId: "same" } },
            async () => ({}),
          );
      }),
    ).rejects.toThrow(/operationId same given twice/);
  });

  it("refuses to start when a route declares no access rule", async () => {
    await expect(
      bareApp((scope) => {
        scope.get("/forgotten", async () => ({ ok: true }));
      }),
    ).rejects.toThrow(/GET \/forgotten declares no access rule/);
  });

  it("answers 401, then 403, before the body is parsed", async () => {
    let parsed = 0;
    const { app, table } = await bareApp((scope) => {
      scope.addHook("preParsing", async () => {
        parsed += 1;
      });
      scope.post(
        "/staff",
        { config: { access: access.permission("events.manage") }, schema: { operationId: "staffOnly" } },
        async () => ({ ok: 1 }),
      );
    });
    await app.ready();
    const post = (token?: string) =>
      app.inject({
        method: "POST",
        url: "/staff",
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        payload: "{not json",
      });
    expect((await post()).statusCode).toBe(401);
    expect((await post("customer")).json()).toMatchObject({
      statusCode: 403,
      message: "Missing permission: events.manage",
    });
    expect(parsed).toBe(0);
    expect((await post("staff")).statusCode).toBe(400);
    expect(parsed).toBe(1);
    expect(table.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /staff"]);
    // documented with the errors its rule and its body can give
    expect(Object.keys(table[0]?.schema.response ?? {})).toEqual(["400", "401", "403", "413", "415"]);
    expect(table[0]?.schema).toMatchObject({ operationId: "staffOnly", summary: "Staff only" });
  });

  it("sets the OpenAPI security from the rule: none for public routes, the Bearer token otherwise", async () => {
    const { app, table } = await bareApp((scope) => {
      scope.get(
        "/open",
        { config: { access: access.public }, schema: { operationId: "getOpen" } },
        async () => ({}),
      );
      scope.get(
        "/mine",
        { config: { access: access.signedIn }, schema: { operationId: "getMine", description: "Mine." } },
        async () => ({}),
      );
    });
    await app.ready();
    const byUrl = Object.fromEntries(table.map((r) => [r.url, r.schema]));
    expect(byUrl["/open"]).toMatchObject({ security: [] });
    expect(byUrl["/mine"]).toMatchObject({
      security: [{ bearer: [] }],
      description: "Access: signed in. Mine.",
    });
  });
});
