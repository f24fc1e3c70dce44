import {
  bookingBody,
  eventBody,
  eventDeleteQuery,
  eventDeleteResponse,
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
import { bearer, errorResponses } from "../../lib/route-schemas";
import { principalOf } from "../../plugins/auth";

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const tags = ["events"];

/** `/v1/events` (public list and page, staff CRUD) and `/v1/registrations` (booking places). */
export default async function eventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { events } = app.deps.services;
  const manage = app.requirePermission(PERMISSIONS.eventsManage);

  // ---- events ----
  app.get(
    "/v1/events",
    {
      preHandler: app.identify,
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
      preHandler: app.identify,
      schema: { tags, params: idParams, response: { 200: eventResponse, ...errors } },
    },
    async (request) => {
      const row = await events.getVisible(request.params.id, request.principal);
      return { data: { event: await events.presentOne(row, request.principal) } };
    },
  );

  app.post(
    "/v1/events",
    {
      preHandler: manage,
      schema: { tags, security: bearer, body: eventBody, response: { 201: eventResponse, ...errors } },
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
      preHandler: manage,
      schema: {
        tags,
        security: bearer,
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
      preHandler: manage,
      schema: {
        tags,
        summary: "Delete an event; 409 while places are booked, unless force=true (cancels the bookings)",
        security: bearer,
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
      preHandler: manage,
      schema: {
        tags,
        security: bearer,
        params: idParams,
        querystring: eventRegistrationsQuery,
        response: { 200: eventRegistrationsResponse, ...errors },
      },
    },
    async (request) => ({
      data: await events.registrationsOf(principalOf(request), request.params.id, request.query),
    }),
  );

  // ---- registrations ----
  app.post(
    "/v1/registrations/booking",
    {
      preHandler: app.requirePermission(PERMISSIONS.eventsBook),
      schema: {
        tags,
        summary: "Book places at an event (409 EVENT_FULL, 409 ALREADY_BOOKED, 422 EVENT_CLOSED)",
        security: bearer,
        body: bookingBody,
        response: { 201: registrationResponse, ...errors },
      },
    },
    async (request, reply) => {
      const registration = await events.book(principalOf(request), request.body);
      reply.status(201);
      return { message: "Places booked", data: { registration } };
    },
  );

  app.get(
    "/v1/registrations/mine",
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: bearer,
        querystring: myRegistrationsQuery,
        response: { 200: registrationListResponse, ...errors },
      },
    },
    async (request) => ({ data: await events.mine(principalOf(request), request.query) }),
  );

  app.get(
    "/v1/registrations/single/:id",
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: bearer,
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
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "Cancel a booking (owner until the event starts, or staff); frees its places",
        security: bearer,
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
