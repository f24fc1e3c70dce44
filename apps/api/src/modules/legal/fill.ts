/**
 * A legal text with the company's details put in. A detail staff have not given yet never reaches
 * a reader as a blank ("[SIRET]"): the sentence that needs it is left out, and a heading left with
 * nothing under it goes too. `missing` names those details, for the staff's banner.
 */
export function fillLegalText(
  source: string,
  values: Record<string, string | undefined>,
  lang: string,
): { body: string; missing: string[] } {
  const missing = new Set<string>();
  const segmenter = new Intl.Segmenter(lang, { granularity: "sentence" });
  const PLACEHOLDER = /\{\{(\w+)\}\}/g;
  const given = (key: string) => values[key]?.trim() || undefined;

  const fillLine = (line: string): string => {
    if (!line.includes("{{")) return line;
    const kept: string[] = [];
    for (const { segment } of segmenter.segment(line)) {
      const keys = [...segment.matchAll(PLACEHOLDER)].map((m) => m[1] ?? "");
      const absent = keys.filter((key) => !given(key));
      for (const key of absent) missing.add(key);
      if (absent.length === 0) kept.push(segment.replace(PLACEHOLDER, (_, key: string) => given(key) ?? ""));
    }
    return kept.join("").trim();
  };

  const blocks = source
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split("\n")
        .map(fillLine)
        .filter((line) => line !== "" && line !== "-" && line !== "- ")
        .join("\n"),
    )
    .filter((block) => block.trim() !== "");
  // a heading whose section lost every sentence goes with it (a heading then another, or the end)
  const kept = blocks.filter((block, i) => {
    const isBareHeading = block.startsWith("## ") && !block.includes("\n");
    if (!isBareHeading) return true;
    const next = blocks[i + 1];
    return next !== undefined && !next.startsWith("## ");
  });
  return { body: kept.join("\n\n"), missing: [...missing] };
}
