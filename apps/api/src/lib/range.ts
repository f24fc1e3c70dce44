export type RangeRequest =
  | { kind: "none" }
  | { kind: "unsatisfiable" }
  | { kind: "range"; start: number; end: number };

/**
 * Parses a `Range: bytes=…` header against a resource of `size` bytes (RFC 9110 §14).
 * Forms: `a-b`, `a-` (open-ended), `-n` (the last n bytes). Another unit is ignored (full
 * response); a malformed range, or a set of which no range is satisfiable, answers 416.
 * Several satisfiable ranges are ignored too (200 with the whole file, which RFC 9110 §14.2
 * allows): players ask for one range at a time, and one answer shape (never
 * multipart/byteranges, never a span the client did not ask for) keeps the route simple.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: "none" };
  const match = /^\s*([a-z]+)\s*=\s*(.*)$/i.exec(header);
  if (!match) return { kind: "unsatisfiable" };
  if ((match[1] as string).toLowerCase() !== "bytes") return { kind: "none" };
  const specs = (match[2] as string).split(",").map((s) => s.trim());
  let found: { start: number; end: number } | undefined;
  let satisfiable = 0;
  for (const spec of specs) {
    const parts = /^(\d*)-(\d*)$/.exec(spec);
    if (!parts) return { kind: "unsatisfiable" };
    const [, first, last] = parts as unknown as [string, string, string];
    let s: number;
    let e: number;
    if (first === "") {
      if (last === "") return { kind: "unsatisfiable" };
      const suffix = Number(last);
      if (suffix === 0) continue;
      s = Math.max(0, size - suffix);
      e = size - 1;
    } else {
      s = Number(first);
      e = last === "" ? size - 1 : Math.min(Number(last), size - 1);
      if (last !== "" && Number(last) < s) return { kind: "unsatisfiable" };
      if (s >= size) continue;
    }
    satisfiable += 1;
    found = { start: s, end: e };
  }
  if (!found || size === 0) return { kind: "unsatisfiable" };
  return satisfiable === 1 ? { kind: "range", ...found } : { kind: "none" };
}
