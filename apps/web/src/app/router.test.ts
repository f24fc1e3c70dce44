import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import { appRouteTree } from "./router";

/** Spec §2 routes, with sample ids. */
const SPEC_ROUTES = [
  "/",
  "/billing",
  "/change-password",
  "/courses",
  "/dashboard",
  "/faqs",
  "/forgot-password",
  "/index_old",
  "/indexv1",
  "/login_old",
  "/paypal",
  "/plans",
  "/pricing",
  "/profile",
  "/protected",
  "/register_old",
  "/reset-user-password",
  "/setting",
  "/User",
  "/auth/login",
  "/billing/subscription-payment",
  "/billing/upgrade-payment",
  "/courses/create",
  "/courses/edit",
  "/courses/more",
  "/mail/send",
  "/mail/templates",
  "/User/create",
  "/User/customers",
  "/User/roles",
  "/User/edit",
  "/User/edit/42",
  "/activate",
  "/activate/abc",
  "/Card/7",
  "/courses/7",
  "/courses/7/lessons",
  "/courses/7/lessons/3",
  "/reset-password",
  "/reset-password/tok",
  "/some-page/index_old",
  "/login",
  "/logout",
  "/contact",
];

function leaf(pathname: string) {
  const matches = matchRoutes(appRouteTree, pathname) ?? [];
  return { root: matches[0]?.route.path, last: matches[matches.length - 1]?.route.path };
}

describe("route map", () => {
  it.each(SPEC_ROUTES)("%s exists in French and under /en", (path) => {
    const fr = leaf(path);
    const en = leaf(path === "/" ? "/en" : `/en${path}`);
    expect(fr.root).toBe("/");
    expect(en.root).toBe("/en");
    expect(fr.last).not.toBe("*");
    expect(en.last).not.toBe("*");
  });

  it("sends unknown pages to the not-found page of their language", () => {
    expect(leaf("/nope")).toEqual({ root: "/", last: "*" });
    expect(leaf("/en/nope/deeper")).toEqual({ root: "/en", last: "*" });
  });
});

describe("events routes", () => {
  it.each(["/events", "/events/7", "/events/manage", "/configs"])(
    "%s exists in French and under /en",
    (path) => {
      expect(leaf(path).last).not.toBe("*");
      expect(leaf(`/en${path}`).last).not.toBe("*");
    },
  );

  it("sends /events/manage to the staff page, not to an event called 'manage'", () => {
    expect(leaf("/events/manage").last).toBe("events/manage");
    expect(leaf("/en/events/7").last).toBe("events/:id");
  });
});
