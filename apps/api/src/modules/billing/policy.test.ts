import { describe, expect, it } from "vitest";
import { principal, requestOf } from "../../../test/helpers/principal";
import { ownerDecision } from "../../plugins/access";
import { customerPlanPolicy, customerPlansOfPolicy } from "./policy";

const planId = "0190a0a0-0000-7000-8000-0000000000c1";
const alice = "0190a0a0-0000-7000-8000-0000000000a1";
const bob = "0190a0a0-0000-7000-8000-0000000000b1";
const subscriberOf = async (id: string) => (id === planId ? alice : null);
const staff = principal("s", ["customer-plans.manage"]);

describe("customer plan policy", () => {
  const inPath = customerPlanPolicy(subscriberOf, { reads: "params", staff: true });
  const inBody = customerPlanPolicy(subscriberOf, { reads: "body", staff: true });
  const demo = customerPlanPolicy(subscriberOf, { reads: "params", staff: false });

  it("lets the subscriber and staff with customer-plans.manage act; to others the plan does not exist", async () => {
    expect(await ownerDecision(inPath, principal(alice), requestOf({ params: { id: planId } }))).toBe(
      "allow",
    );
    expect(await ownerDecision(inPath, principal(bob), requestOf({ params: { id: planId } }))).toBe("deny");
    expect(await ownerDecision(inPath, staff, requestOf({ params: { id: planId } }))).toBe("allow");
    expect(await ownerDecision(inPath, principal(bob), requestOf({ params: { id: bob } }))).toBe("deny");
    expect(inPath.denied ?? 404).toBe(404);
  });

  it("reads the id from the body for the spec's update-plan-status; a malformed one is left to validation", async () => {
    expect(await ownerDecision(inBody, principal(alice), requestOf({ body: { id: planId } }))).toBe("allow");
    expect(await ownerDecision(inBody, principal(bob), requestOf({ body: { id: planId } }))).toBe("deny");
    expect(await ownerDecision(inBody, principal(bob), requestOf({ body: { id: 42 } }))).toBe("invalid");
    expect(await ownerDecision(inBody, principal(bob), requestOf({ body: undefined }))).toBe("invalid");
  });

  it("keeps demo checkouts to their subscriber, staff included", async () => {
    expect(await ownerDecision(demo, principal(alice), requestOf({ params: { id: planId } }))).toBe("allow");
    expect(await ownerDecision(demo, staff, requestOf({ params: { id: planId } }))).toBe("deny");
  });
});

describe("whose plans and payments (?user_id=)", () => {
  it("is the caller's own by default, another user's for staff only", async () => {
    const p = customerPlansOfPolicy;
    expect(await ownerDecision(p, principal(alice), requestOf({}))).toBe("allow");
    expect(await ownerDecision(p, principal(alice), requestOf({ query: { user_id: alice } }))).toBe("allow");
    expect(await ownerDecision(p, principal(alice), requestOf({ query: { user_id: bob } }))).toBe("deny");
    expect(await ownerDecision(p, staff, requestOf({ query: { user_id: bob } }))).toBe("allow");
    expect(await ownerDecision(p, principal(alice), requestOf({ query: { user_id: "x" } }))).toBe("invalid");
  });
});
