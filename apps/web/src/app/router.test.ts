import { matchWebRoute, STAFF_PAGE_PERMISSIONS } from "@parlons/contract";
import type { ReactElement } from "react";
import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { routes as routesByName } from "@/lib/paths";
import { RequirePermission } from "./guards";
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

describe("the server's route list (matchWebRoute)", () => {
  const known = [
    ...SPEC_ROUTES,
    "/events",
    "/events/7",
    "/events/manage",
    "/configs",
    "/user/CREATE",
    "/courses/7/",
  ];
  it.each(known)("%s is known in both locales, as the router says", (path) => {
    expect(leaf(path).last).not.toBe("*");
    expect(matchWebRoute(path)).toMatchObject({ lang: "fr" });
    expect(matchWebRoute(path === "/" ? "/en" : `/en${path}`)).toMatchObject({ lang: "en" });
  });

  it.each(["/nope", "/en/nope/deeper", "/fr/courses", "/courses/7/lessons/3/more", "/en/en"])(
    "%s is unknown to both",
    (path) => {
      expect(leaf(path).last).toBe("*");
      expect(matchWebRoute(path)).toBeNull();
    },
  );

  it("picks the route the router renders", () => {
    for (const path of [
      "/courses/more",
      "/courses/7",
      "/en/courses/7/lessons",
      "/events/manage",
      "/User/edit/4",
    ]) {
      const match = matchWebRoute(path);
      expect(match && routesByName[match.name]).toBe(leaf(path).last);
    }
    expect(matchWebRoute("/en/courses/a%20b")).toEqual({ lang: "en", name: "course", params: { id: "a b" } });
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

describe("staff pages", () => {
  it("each is guarded by the permission the server's page status checks (STAFF_PAGE_PERMISSIONS)", () => {
    const guarded: Record<string, string> = {};
    const nameOfPath = new Map<string, string>(
      Object.entries(routesByName).map(([name, path]) => [path, name]),
    );
    const walk = (tree: RouteObject[], slug: string | null) => {
      for (const route of tree) {
        const element = route.element as ReactElement<{ slug?: string }> | undefined;
        const own = element?.type === RequirePermission ? (element.props.slug ?? null) : slug;
        const name = route.path ? nameOfPath.get(route.path) : undefined;
        if (own && name) guarded[name] = own;
        if (route.children) walk(route.children, own);
      }
    };
    walk(appRouteTree, null);
    expect(guarded).toEqual(STAFF_PAGE_PERMISSIONS);
  });
});
