import createClient from "openapi-fetch";
import type { paths } from "./openapi";
const client = createClient<paths>({ baseUrl: "http://localhost" });
export async function titles(): Promise<string[]> {
  const { data } = await client.GET("/api/v1/courses/active", { params: { query: { page: 1 } } });
  return (data?.data.courses ?? []).map((c) => c.title_en);
}
export async function wrong() {
  // @ts-expect-error: no such route
  await client.GET("/api/v1/no-such-route");
  // @ts-expect-error: the body needs a password
  await client.POST("/api/v1/user/authenticate", { body: { username: "a" } });
}
