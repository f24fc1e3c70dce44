import type { DehydratedState } from "@tanstack/react-query";

/** The id of the `<script type="application/json">` element that carries a server render's data. */
const SERVER_RENDER_ID = "ssr-data";

/** What the server tells the browser about a page it rendered (JSON: the CSP forbids inline scripts). */
export interface ServerRender {
  status: number;
  queries: DehydratedState;
}

export function readServerRender(doc: Document): ServerRender | null {
  const text = doc.getElementById(SERVER_RENDER_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as ServerRender;
  } catch {
    return null;
  }
}

/** JSON safe inside `<script>`: no `</script>` nor `<!--` can end or change the element. */
export function serverRenderJson(data: ServerRender): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
