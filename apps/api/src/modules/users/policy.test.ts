import { describe, expect, it } from "vitest";
import { principal, requestOf } from "../../../test/helpers/principal";
import { ownerDecision } from "../../plugins/access";
import { profilePolicy } from "./policy";

const alice = "0190a0a0-0000-7000-8000-0000000000a1";
const bob = "0190a0a0-0000-7000-8000-0000000000b1";

describe("profile policy", () => {
  it("lets a user edit their own profile and staff with users.manage anyone's (others: 403)", async () => {
    const at = (id: unknown) => requestOf({ params: { id } });
    expect(await ownerDecision(profilePolicy, principal(alice), at(alice))).toBe("allow");
    expect(await ownerDecision(profilePolicy, principal(bob), at(alice))).toBe("deny");
    expect(await ownerDecision(profilePolicy, principal("s", ["users.manage"]), at(alice))).toBe("allow");
    expect(await ownerDecision(profilePolicy, principal("r", ["users.read"]), at(alice))).toBe("deny");
    expect(await ownerDecision(profilePolicy, principal(bob), at("me"))).toBe("invalid");
    expect(profilePolicy.denied).toBe(403);
  });
});
