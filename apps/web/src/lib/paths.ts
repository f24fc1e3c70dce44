import { routes, type WebRouteName } from "@parlons/contract";

export { routes };

type Segments<P extends string> = P extends `${infer Head}/${infer Rest}` ? Head | Segments<Rest> : P;
type Required_<P extends string> =
  Segments<P> extends infer S
    ? S extends `:${infer Name}`
      ? Name extends `${string}?`
        ? never
        : Name
      : never
    : never;
type Optional_<P extends string> =
  Segments<P> extends infer S ? (S extends `:${infer Name}?` ? Name : never) : never;

/** The parameters a page's pattern names (`courses/:id/lessons/:lessonId` → `{ id, lessonId }`). */
type PageParams<R extends WebRouteName> = { [K in Required_<(typeof routes)[R]>]: string } & {
  [K in Optional_<(typeof routes)[R]>]?: string;
};

type Query = Record<string, string | number | undefined>;
type PathArgs<R extends WebRouteName> = [Required_<(typeof routes)[R]>] extends [never]
  ? [params?: PageParams<R>, query?: Query]
  : [params: PageParams<R>, query?: Query];

/**
 * The one place a page's URL is spelled: its route's pattern (`routes`, shared with the router and
 * the server) filled with its parameters, encoded, and an optional query. Unprefixed (French): a
 * component passes it to `useLocalePath()` for the reader's language.
 */
export function pagePath<R extends WebRouteName>(name: R, ...[params, query]: PathArgs<R>): string {
  const values = (params ?? {}) as Record<string, string | undefined>;
  const path = routes[name]
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment;
      const value = values[segment.slice(1).replace(/\?$/, "")];
      return value === undefined ? "" : encodeURIComponent(value);
    })
    .filter((segment, i) => segment !== "" || i === 0)
    .join("/");
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) search.set(key, String(value));
  const rest = search.size ? `?${search}` : "";
  return `/${path}${rest}`;
}
