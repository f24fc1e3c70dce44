import {
  activePlansResponse,
  createPlanBody,
  idParams,
  PERMISSIONS,
  planDeleteResponse,
  planResponse,
  plansResponse,
  updatePlanBody,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { notFound } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { changedFields } from "../audit/policy";
import { withOpens } from "./opens";
import { canSeeInactivePlans } from "./policy";
import { presentPlan } from "./service";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(404, 409, 502);
const tags = ["plans"];
const HOUR = 3_600_000;

export default async function planRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { plans, audit, courses, events } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.plansManage) };

  app.get(
    "/v1/plans",
    {
      config: manage,
      schema: {
        tags,
        summary: "All plans (staff)",
        response: { 200: plansResponse, ...errors },
      },
    },
    async () => ({ data: { plans: (await plans.listAll()).map(presentPlan) } }),
  );

  app.get(
    "/v1/plans/active",
    {
      // kept in memory until a plan changes; what each opens follows the courses and lessons
      // (`courses`: every write of either) and the events, and is computed anew each hour (an
      // event that ends stops being sold)
      config: {
        access: access.public,
        keep: {
          per: "everyone",
          droppedBy: ["plans", "courses", "events"],
          period: () => Math.floor(Date.now() / HOUR),
        },
      },
      schema: {
        tags,
        summary: "Active plans, in display order, each with what it opens among what exists (public)",
        response: { 200: activePlansResponse, ...errors },
      },
    },
    async () => {
      const [rows, live, premiumEvents] = await Promise.all([
        plans.listActive(),
        courses.live(),
        events.premiumOnlyAhead(),
      ]);
      const catalogue = { courses: live, premiumEvents };
      return { data: { plans: rows.map((row) => withOpens(presentPlan(row), catalogue)) } };
    },
  );

  app.get(
    "/v1/plans/single/:id",
    {
      config: { access: access.publicViewer },
      schema: { tags, params: idParams, response: { 200: planResponse, ...errors } },
    },
    async (request) => {
      const plan = await plans.get(request.params.id);
      if (!plan.active && !canSeeInactivePlans(request.principal)) throw notFound("Plan");
      return { data: { plan: presentPlan(plan) } };
    },
  );

  app.post(
    "/v1/plans",
    {
      config: manage,
      schema: {
        tags,
        summary: "Create a plan; a paid plan gets its provider product and billing plan first",
        body: createPlanBody,
        response: { 201: planResponse, ...errors },
      },
    },
    async (request, reply) => {
      const plan = presentPlan(await plans.create(request.body));
      await audit.record({
        actor: principalOf(request),
        action: "plans.create",
        target: { type: "plan", id: plan.id },
        after: plan,
      });
      return reply.status(201).send({ message: "Plan created", data: { plan } });
    },
  );

  app.put(
    "/v1/plans/:id",
    {
      config: manage,
      schema: {
        tags,
        summary: "Update a plan; a new price creates a new provider billing plan (subscribers keep theirs)",
        params: idParams,
        body: updatePlanBody,
        response: { 200: planResponse, ...errors },
      },
    },
    async (request) => {
      const before = presentPlan(await plans.get(request.params.id));
      const plan = presentPlan(await plans.update(request.params.id, request.body));
      const changed = changedFields(before, plan);
      if (changed) {
        await audit.record({
          actor: principalOf(request),
          action: "plans.update",
          target: { type: "plan", id: plan.id, label: plan.name_fr },
          ...changed,
        });
      }
      return { message: "Plan updated", data: { plan } };
    },
  );

  app.delete(
    "/v1/plans/:id",
    {
      config: manage,
      schema: {
        tags,
        summary: "Delete a plan, or deactivate it when learners subscribed to it",
        params: idParams,
        response: { 200: planDeleteResponse, ...errors },
      },
    },
    async (request) => {
      const before = presentPlan(await plans.get(request.params.id));
      const result = await plans.remove(request.params.id);
      await audit.record({
        actor: principalOf(request),
        action: "plans.delete",
        target: { type: "plan", id: request.params.id },
        before,
        // a plan with subscribers stays, deactivated
        after: result.deleted ? null : presentPlan(result.plan),
      });
      return {
        message: result.deleted
          ? "Plan deleted"
          : "The plan has subscribers: it was deactivated, not deleted",
        data: { deleted: result.deleted, plan: presentPlan(result.plan) },
      };
    },
  );
}
