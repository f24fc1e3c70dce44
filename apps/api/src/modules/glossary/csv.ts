/** One record of a CSV file: the line it starts on (1 is the first) and its cells, or why it could not be read. */
export type CsvRecord = { line: number; cells: string[] } | { line: number; error: "UNCLOSED_QUOTE" };

/** The separator of a CSV: a semicolon when the first line has more of them than commas (spreadsheets in French write so). */
function separatorOf(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? "";
  const count = (c: string) => first.split(c).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

/**
 * Reads a CSV as RFC 4180 says (quoted cells may hold separators, doubled quotes and line breaks),
 * record by record: a quote left open spoils its record alone and reading goes on at the next line.
 * Blank lines are skipped; a byte-order mark at the start is ignored.
 */
export function parseCsv(input: string): CsvRecord[] {
  const text = input.replace(/^\uFEFF/, "");
  const separator = separatorOf(text);
  const lines = text.split(/\r?\n/);
  const records: CsvRecord[] = [];
  let i = 0;
  while (i < lines.length) {
    const startLine = i + 1;
    let source = lines[i] as string;
    i++;
    if (source.trim() === "") continue;
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    let at = 0;
    let broken = false;
    for (;;) {
      if (at >= source.length) {
        if (!quoted) break;
        // a quoted cell goes on to the next line
        if (i >= lines.length) {
          broken = true;
          break;
        }
        cell += "\n";
        source = lines[i] as string;
        i++;
        at = 0;
        continue;
      }
      const c = source[at] as string;
      if (quoted) {
        if (c === '"' && source[at + 1] === '"') {
          cell += '"';
          at += 2;
        } else if (c === '"') {
          quoted = false;
          at++;
        } else {
          cell += c;
          at++;
        }
      } else if (c === '"' && cell.trim() === "") {
        quoted = true;
        cell = "";
        at++;
      } else if (c === separator) {
        cells.push(cell);
        cell = "";
        at++;
      } else {
        cell += c;
        at++;
      }
    }
    if (broken) {
      records.push({ line: startLine, error: "UNCLOSED_QUOTE" });
      // read again from the line after the one that opened the quote
      i = startLine;
      continue;
    }
    cells.push(cell);
    records.push({ line: startLine, cells: cells.map((c) => c.trim()) });
  }
  return records;
}
