import {
  bookingBody,
  eventBody,
  eventDeleteQuery,
  eventDeleteResponse,
  eventIcsQuery,
  eventListQuery,
  eventListResponse,
  eventRegistrationsQuery,
  eventRegistrationsResponse,
  eventResponse,
  eventUpdateBody,
  idParams,
  myRegistrationsQuery,
  PERMISSIONS,
  registrationListResponse,
  registrationResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { learnerLimits } from "../../plugins/learner-limits";
import { registrationPolicy } from "./policy";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(403, 404, 409);
/** The period of a kept list of bookings: whether an event is upcoming or bookable moves with the clock. */
const quarterMinute = () => Math.floor(Date.now() / 15_000);
const tags = ["events"];

/** `/v1/events` (public list and page, staff CRUD) and `/v1/registrations` (booking places). */
export default async function eventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { events } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.eventsManage) };
  const learnerOrStaff = { access: access.owner(registrationPolicy((id) => events.learnerOf(id))) };

  // ---- events ----
  app.get(
    "/v1/events",
    {
      config: { access: access.publicViewer },
      schema: {
        tags,
        summary:
          "Upcoming active events with their places left (staff: inactive too, and past with include=past)",
        querystring: eventListQuery,
        response: { 200: eventListResponse, ...errors },
      },
    },
    async (request) => ({ data: await events.list(request.query, request.principal) }),
  );

  app.get(
    "/v1/events/:id",
    {
      config: { access: access.publicViewer },
      schema: { tags, params: idParams, response: { 200: eventResponse, ...errors } },
    },
    async (request) => {
      const row = await events.getVisible(request.params.id, request.principal);
      return { data: { event: await events.presentOne(row, request.principal) } };
    },
  );

  app.get(
    "/v1/events/:id/ics",
    {
      config: { access: access.publicViewer, rateLimit: learnerLimits.calendar },
      schema: {
        tags,
        summary: "The event as an .ics file (the meeting link only for staff and learners holding a booking)",
        params: idParams,
        querystring: eventIcsQuery,
        response: { 200: z.unknown().describe("An iCalendar file (text/calendar)"), ...errors },
      },
    },
    async (request, reply) => {
      const { slug, ics } = await events.ics(
        request.params.id,
        request.principal,
        request.query.lang ?? "fr",
      );
      return reply
        .header("content-type", "text/calendar; charset=utf-8")
        .header("content-disposition", `attachment; filename="${slug}.ics"`)
        .header("cache-control", "private, no-store")
        .send(ics);
    },
  );

  app.post(
    "/v1/events",
    {
      config: manage,
      schema: { tags, body: eventBody, response: { 201: eventResponse, ...errors } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const row = await events.create(principal, request.body);
      reply.status(201);
      return { message: "Event created", data: { event: await events.presentOne(row, principal) } };
    },
  );

  app.put(
    "/v1/events/:id",
    {
      config: manage,
      schema: {
        tags,
        params: idParams,
        body: eventUpdateBody,
        response: { 200: eventResponse, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const row = await events.update(principal, request.params.id, request.body);
      return { message: "Event updated", data: { event: await events.presentOne(row, principal) } };
    },
  );

  app.delete(
    "/v1/events/:id",
    {
      config: manage,
      schema: {
        tags,
        summary: "Delete an event; 409 while places are booked, unless force=true (cancels the bookings)",
        params: idParams,
        querystring: eventDeleteQuery,
        response: { 200: eventDeleteResponse, ...errors },
      },
    },
    async (request) => {
      const result = await events.delete(
        principalOf(request),
        request.params.id,
        request.query.force === "true",
      );
      return { message: "Event deleted", data: result };
    },
  );

  app.get(
    "/v1/events/:id/registrations",
    {
      config: manage,
      schema: {
        tags,
        params: idParams,
        querystring: eventRegistrationsQuery,
        response: { 200: eventRegistrationsResponse, ...errors },
      },
    },
    async (request) => ({
      data: await events.registrationsOf(request.params.id, request.query),
    }),
  );

  // ---- registrations ----
  app.post(
    "/v1/registrations/booking",
    {
      config: { access: access.permission(PERMISSIONS.eventsBook) },
      schema: {
        tags,
        summary:
          "Book places at an event, or join its waiting list with waitlist=true (409 EVENT_FULL, 409 ALREADY_BOOKED, 403 PREMIUM_REQUIRED, 422 EVENT_CLOSED)",
        body: bookingBody,
        response: { 201: registrationResponse, ...errors },
      },
    },
    async (request, reply) => {
      const registration = await events.book(principalOf(request), request.body);
      reply.status(201);
      const waiting = registration.status === "WAITING";
      return { message: waiting ? "On the waiting list" : "Places booked", data: { registration } };
    },
  );

  app.get(
    "/v1/registrations/mine",
    {
      // kept per reader until an event or a booking changes; what is upcoming or still bookable
      // follows the clock: an answer is kept for a quarter of a minute at most
      config: {
        access: access.signedIn,
        keep: { per: "reader", droppedBy: ["events"], period: quarterMinute },
      },
      schema: {
        tags,
        querystring: myRegistrationsQuery,
        response: { 200: registrationListResponse, ...errors },
      },
    },
    async (request) => ({ data: await events.mine(principalOf(request), request.query) }),
  );

  app.get(
    "/v1/registrations/single/:id",
    {
      config: learnerOrStaff,
      schema: {
        tags,
        params: idParams,
        response: { 200: registrationResponse, ...errors },
      },
    },
    async (request) => ({
      data: { registration: await events.getRegistration(principalOf(request), request.params.id) },
    }),
  );

  app.post(
    "/v1/registrations/cancel/:id",
    {
      config: learnerOrStaff,
      schema: {
        tags,
        summary: "Cancel a booking (owner until the event starts, or staff); frees its places",
        params: idParams,
        response: { 200: registrationResponse, ...errors },
      },
    },
    async (request) => ({
      message: "Booking cancelled",
      data: { registration: await events.cancel(principalOf(request), request.params.id) },
    }),
  );
}
