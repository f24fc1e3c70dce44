import type { FastifyInstance, FastifyRequest } from "fastify";
import { dayStartOf } from "../lib/day-start";
import type { Principal } from "../lib/principal";
import { principalOf } from "./auth";

/** The caller with what their plan opens (the principal cache's answer), as the deck's services take it. */
interface Reviewer {
  principal: Principal;
  access: Awaited<ReturnType<FastifyInstance["deps"]["services"]["principals"]["accessOf"]>>;
}

/** A learner's request to their deck (review and practice routes) carries when their day started. */
type OnDay = { day_start?: string | undefined };

/** The caller as the owner of a review deck: who they are, what they may open, when their day started. */
export function deckCaller(app: FastifyInstance) {
  const { principals } = app.deps.services;
  const { clock } = app.deps;
  const reviewerOf = async (request: FastifyRequest): Promise<Reviewer> => {
    const principal = principalOf(request);
    return { principal, access: await principals.accessOf(principal) };
  };
  return {
    reviewerOf,
    /** The start of the learner's day that `input.day_start` gives (00:00 UTC when it cannot be one). */
    dayStart: (input: OnDay) => dayStartOf(input.day_start, clock()),
    /** The answer of `call` made with the caller, `input` and the start of the caller's day. */
    async answer<I extends OnDay, R>(
      request: FastifyRequest,
      input: I,
      call: (reviewer: Reviewer, input: I, dayStart: Date) => Promise<R>,
    ): Promise<{ data: R }> {
      return { data: await call(await reviewerOf(request), input, dayStartOf(input.day_start, clock())) };
    },
  };
}
