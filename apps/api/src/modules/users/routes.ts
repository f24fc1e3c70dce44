import {
  addUserBody,
  idParams,
  PERMISSIONS,
  passwordField,
  profileBody,
  ROLE_CUSTOMER,
  statusUpdateQuery,
  type UserStatus,
  updateUserBody,
  userIdQuery,
  userListBody,
  userListResponse,
  userMeResponse,
  userResponse,
} from "@parlons/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { forbidden, notFound, validationFailed } from "../../lib/errors";
import { hashPassword } from "../../lib/passwords";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { changedFields } from "../audit/policy";
import { profilePolicy } from "./policy";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(403, 404, 409);

export default async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { users, sessions, audit } = app.deps.services;
  const { db } = app.deps.database;

  const me = {
    // asked by every signed-in page: kept per reader until their account (profile, status, role,
    // plan), the roles or the plans change, in every process (as the principal cache is)
    config: { access: access.signedIn, keep: { per: "reader", droppedBy: [] } },
    schema: { tags: ["users"], response: { 200: userMeResponse, ...errors } },
  } as const;
  const meHandler = async (request: FastifyRequest) => ({
    data: { data: await users.getCurrentUser(principalOf(request).id) },
  });
  app.get("/v1/user/me", me, meHandler);
  app.get("/v1/users/me", me, meHandler);

  app.put(
    "/v1/user/profile/:id",
    {
      config: { access: access.owner(profilePolicy) },
      schema: {
        tags: ["users"],
        params: idParams,
        body: profileBody,
        response: { 200: userMeResponse, ...errors },
      },
    },
    async (request) => {
      const { full_name, gender, speak } = request.body;
      // staff editing someone else's profile: the grant ceiling
      const actor = principalOf(request);
      if (actor.id !== request.params.id) await users.assertMayActOn(actor, request.params.id);
      await users.update(request.params.id, { fullName: full_name, gender, speak });
      return { message: "Profile updated", data: { data: await users.getCurrentUser(request.params.id) } };
    },
  );

  // ---- staff ----
  const listSchema = {
    tags: ["users"],
    body: userListBody,
    response: { 200: userListResponse, ...errors },
  };
  app.post(
    "/v1/users",
    { config: { access: access.permission(PERMISSIONS.usersRead) }, schema: listSchema },
    async (request) => ({
      data: await users.list(request.body),
    }),
  );
  app.post(
    "/v1/users/customers",
    { config: { access: access.permission(PERMISSIONS.usersRead) }, schema: listSchema },
    async (request) => ({ data: await users.list({ ...request.body, role: ROLE_CUSTOMER }) }),
  );

  app.get(
    "/v1/users/:id",
    {
      config: { access: access.permission(PERMISSIONS.usersRead) },
      schema: {
        tags: ["users"],
        params: idParams,
        response: { 200: userResponse, ...errors },
      },
    },
    async (request) => {
      const row = await users.findById(request.params.id);
      if (!row) throw notFound("User");
      return { data: { user: await users.present(row) } };
    },
  );

  const createSchema = {
    tags: ["users"],
    body: addUserBody,
    response: { 201: userResponse, ...errors },
  };
  const createHandler = async (
    request: FastifyRequest<{ Body: z.infer<typeof addUserBody> }>,
    reply: { status(code: number): unknown },
  ) => {
    const checkedEmail = z.email().safeParse(request.body.email);
    if (!checkedEmail.success) throw validationFailed({ email: ["Please enter a valid email"] });
    const checkedPassword = passwordField.safeParse(request.body.password);
    if (!checkedPassword.success)
      throw validationFailed({ password: checkedPassword.error.issues.map((i) => i.message) });
    await users.assertMayGrantRole(principalOf(request), request.body.role);
    const passwordHash = await hashPassword(request.body.password);
    const user = await db.transaction(async (tx) => {
      const row = await users.createUser(
        {
          email: request.body.email,
          passwordHash,
          fullName: request.body.full_name,
          speak: request.body.speak,
          status: "ACTIVE",
          role: request.body.role,
        },
        tx,
      );
      const presented = await users.present(row, tx);
      await audit.record(
        {
          actor: principalOf(request),
          action: "users.create",
          target: { type: "user", id: row.id },
          after: presented,
        },
        tx,
      );
      return presented;
    });
    reply.status(201);
    return { message: "User created", data: { user } };
  };
  app.post(
    "/v1/users/add",
    { config: { access: access.permission(PERMISSIONS.usersManage) }, schema: createSchema },
    createHandler,
  );
  app.post(
    "/v1/users/signup",
    { config: { access: access.permission(PERMISSIONS.usersManage) }, schema: createSchema },
    createHandler,
  );

  /** Sets a user's status (audited) once the grant ceiling lets the caller act on them. */
  async function changeStatus(
    request: FastifyRequest,
    userId: string,
    changes: () => { status: UserStatus; activatedAt?: Date },
  ) {
    await users.assertMayActOn(principalOf(request), userId);
    const before = await users.findById(userId);
    if (!before) throw notFound("User");
    const row = await users.update(userId, changes());
    await audit.record({
      actor: principalOf(request),
      action: "users.status",
      target: { type: "user", id: userId, label: row.email },
      before: { status: before.status },
      after: { status: row.status },
    });
    return row;
  }

  app.post(
    "/v1/users/user-approve",
    {
      config: { access: access.permission(PERMISSIONS.usersManage) },
      schema: {
        tags: ["users"],
        querystring: userIdQuery,
        response: { 200: userResponse, ...errors },
      },
    },
    async (request) => {
      const row = await changeStatus(request, request.query.userId, () => ({
        status: "ACTIVE",
        activatedAt: new Date(),
      }));
      return { message: "User approved", data: { user: await users.present(row) } };
    },
  );

  app.post(
    "/v1/users/status/update",
    {
      config: { access: access.permission(PERMISSIONS.usersManage) },
      schema: {
        tags: ["users"],
        querystring: statusUpdateQuery,
        response: { 200: userResponse, ...errors },
      },
    },
    async (request) => {
      const { userId, status } = request.query;
      if (userId === principalOf(request).id && status !== "ACTIVE")
        throw forbidden("You cannot disable your own account");
      const row = await changeStatus(request, userId, () => ({ status }));
      if (status !== "ACTIVE") await sessions.revokeAllForUser(userId, "account_disabled");
      return { message: "Status updated", data: { user: await users.present(row) } };
    },
  );

  app.post(
    "/v1/users/update/:id",
    {
      config: { access: access.permission(PERMISSIONS.usersManage) },
      schema: {
        tags: ["users"],
        params: idParams,
        body: updateUserBody,
        response: { 200: userResponse, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { role, full_name, status, plan_id, ...rest } = request.body;
      if (id === principalOf(request).id && (role !== undefined || (status && status !== "ACTIVE"))) {
        throw forbidden("You cannot change your own role or status");
      }
      const row = await db.transaction(async (tx) => {
        await users.assertMayActOn(principalOf(request), id, tx);
        if (role) await users.assertMayGrantRole(principalOf(request), role, tx);
        const previous = await users.findById(id, tx);
        if (!previous) throw notFound("User");
        const before = await users.present(previous, tx);
        const updated = await users.update(id, { ...rest, fullName: full_name, status, planId: plan_id }, tx);
        if (role) await users.setRole(id, role, tx);
        const after = await users.present(updated, tx);
        const changed = changedFields(before, after);
        if (changed) {
          // a role change is the family staff look for first, then a status change
          const action =
            "role" in changed.after
              ? "users.role"
              : "status" in changed.after
                ? "users.status"
                : "users.update";
          await audit.record(
            {
              actor: principalOf(request),
              action,
              target: { type: "user", id, label: after.email },
              ...changed,
            },
            tx,
          );
        }
        return updated;
      });
      app.deps.changes.publish(`user:${id}`);
      if (status && status !== "ACTIVE") await sessions.revokeAllForUser(id, "account_disabled");
      return { message: "User updated", data: { user: await users.present(row) } };
    },
  );
}
