import { describe, expect, it } from "vitest";
import { type CustomerPlanState, decide } from "./state-machine";

const now = new Date("2025-03-10T12:00:00Z");
const nextBilling = new Date("2025-04-10T12:00:00Z");
const state = (over: Partial<CustomerPlanState> = {}): CustomerPlanState => ({
  status: "ACTIVE",
  startedAt: new Date("2025-03-10T11:00:00Z"),
  lastPaymentAt: new Date("2025-03-10T11:00:00Z"),
  nextBillingAt: nextBilling,
  cancelledAt: null,
  accessUntil: null,
  replacesId: null,
  duplicateOf: null,
  ...over,
});
const pending = (over: Partial<CustomerPlanState> = {}) =>
  state({ status: "APPROVAL_PENDING", startedAt: null, lastPaymentAt: null, nextBillingAt: null, ...over });
const paidNow = {
  id: "S2",
  status: "ACTIVE" as const,
  nextBillingTime: nextBilling,
  lastPayment: { amountCents: 999, currency: "EUR", time: now },
};

describe("billing state machine", () => {
  it("pending stays pending until the provider activates it", () => {
    const pending = state({
      status: "APPROVAL_PENDING",
      startedAt: null,
      lastPaymentAt: null,
      nextBillingAt: null,
    });
    expect(decide(pending, { id: "S", status: "APPROVED" }, "sync", now).patch).toBeNull();
    const active = decide(pending, { id: "S", status: "ACTIVE", nextBillingTime: nextBilling }, "sync", now);
    expect(active).toMatchObject({
      activated: true,
      patch: { status: "ACTIVE", nextBillingAt: nextBilling },
    });
  });

  it("the same truth twice changes nothing", () => {
    const truth = { id: "S", status: "ACTIVE" as const, nextBillingTime: nextBilling };
    expect(decide(state(), truth, "sync", now)).toEqual({
      patch: null,
      activated: false,
      cancelAtProvider: false,
      payment: "receipt",
    });
  });

  it("a learner's cancellation keeps the paid period; the provider's does not", () => {
    const learner = decide(state(), { id: "S", status: "CANCELLED" }, "learner-cancel", now);
    expect(learner.patch).toMatchObject({
      status: "CANCELLED",
      accessUntil: nextBilling,
      nextBillingAt: null,
    });
    const provider = decide(state(), { id: "S", status: "CANCELLED" }, "sync", now);
    expect(provider.patch).toMatchObject({ status: "CANCELLED", accessUntil: null });
  });

  it("suspended and expired end access", () => {
    expect(decide(state(), { id: "S", status: "SUSPENDED" }, "sync", now).patch).toMatchObject({
      status: "SUSPENDED",
      accessUntil: null,
    });
    expect(decide(state(), { id: "S", status: "EXPIRED" }, "sync", now).patch).toMatchObject({
      status: "EXPIRED",
    });
  });

  it("ours cancelled is final: a provider still billing is told to cancel", () => {
    const ours = state({ status: "CANCELLED", accessUntil: nextBilling });
    expect(decide(ours, { id: "S", status: "ACTIVE" }, "sync", now)).toEqual({
      patch: null,
      activated: false,
      cancelAtProvider: true,
      payment: "receipt",
    });
    expect(decide(ours, { id: "S", status: "CANCELLED" }, "sync", now).cancelAtProvider).toBe(false);
  });

  describe("one live subscription per learner", () => {
    it("activating while the learner holds no other plan: activated, its payment receipted", () => {
      expect(decide(pending(), paidNow, "sync", now, { holderId: null })).toMatchObject({
        activated: true,
        cancelAtProvider: false,
        payment: "receipt",
        patch: { status: "ACTIVE" },
      });
    });

    it("a checkout started to replace the plan held is a change of plan: activated", () => {
      const upgrade = pending({ replacesId: "HELD" });
      expect(decide(upgrade, paidNow, "sync", now, { holderId: "HELD" })).toMatchObject({
        activated: true,
        cancelAtProvider: false,
        payment: "receipt",
      });
    });

    it("any other activation while a plan is held is a duplicate: cancelled here and at the provider, payment refunded", () => {
      for (const replacesId of [null, "AN-OLDER-PLAN"]) {
        const decision = decide(pending({ replacesId }), paidNow, "sync", now, { holderId: "HELD" });
        expect(decision).toEqual({
          patch: {
            status: "CANCELLED",
            cancelledAt: now,
            lastPaymentAt: now,
            nextBillingAt: null,
            accessUntil: null,
            duplicateOf: "HELD",
          },
          activated: false,
          cancelAtProvider: true,
          payment: "refund",
        });
      }
    });

    it("the plan held is never displaced by a duplicate, and a pending checkout stays pending", () => {
      // the holder itself, re-read: nothing changes (the holder query excludes the row itself)
      expect(
        decide(state(), { id: "S", status: "ACTIVE", nextBillingTime: nextBilling }, "sync", now, {
          holderId: null,
        }).patch,
      ).toBeNull();
      expect(decide(pending(), { id: "S", status: "APPROVED" }, "sync", now, { holderId: "HELD" })).toEqual({
        patch: null,
        activated: false,
        cancelAtProvider: false,
        payment: "receipt",
      });
    });

    it("a duplicate stays cancelled: still billed → cancel again, any later payment refunded", () => {
      const duplicate = state({
        status: "CANCELLED",
        cancelledAt: now,
        duplicateOf: "HELD",
        nextBillingAt: null,
      });
      expect(decide(duplicate, paidNow, "sync", now, { holderId: "HELD" })).toEqual({
        patch: null,
        activated: false,
        cancelAtProvider: true,
        payment: "refund",
      });
      expect(decide(duplicate, { id: "S2", status: "CANCELLED" }, "sync", now).cancelAtProvider).toBe(false);
    });
  });
});
