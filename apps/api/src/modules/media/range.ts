export type RangeRequest =
  | { kind: "none" }
  | { kind: "unsatisfiable" }
  | { kind: "range"; start: number; end: number };

/**
 * Parses a `Range: bytes=…` header against a resource of `size` bytes (RFC 9110 §14).
 * Forms: `a-b`, `a-` (open-ended), `-n` (the last n bytes). Several ranges are
 * coalesced into the one span that covers them. Another unit is ignored (full
 * response); a malformed or unsatisfiable bytes range answers 416.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: "none" };
  const match = /^\s*([a-z]+)\s*=\s*(.*)$/i.exec(header);
  if (!match) return { kind: "unsatisfiable" };
  if ((match[1] as string).toLowerCase() !== "bytes") return { kind: "none" };
  const specs = (match[2] as string).split(",").map((s) => s.trim());
  let start = Number.POSITIVE_INFINITY;
  let end = -1;
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
    start = Math.min(start, s);
    end = Math.max(end, e);
  }
  if (end < 0 || !Number.isFinite(start) || size === 0) return { kind: "unsatisfiable" };
  return { kind: "range", start, end };
}
