/**
 * npm run align -- AUDIO TEXT [--lang fr|en|es] [--split lines|sentences|auto] [--signal-only] [--json]
 *
 * Prints WebVTT on stdout, one cue per line of TEXT (or per sentence with --split), in order.
 * On stderr: which mode ran and the lines flagged for a look. --json prints the whole result
 * (mode, confidence, doubtful flags) instead of WebVTT.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { alignAudio } from "./align.js";
import { type AlignLanguage, type SplitMode, splitScript } from "./script.js";
import { toWebVtt } from "./vtt.js";

const usage =
  "usage: npm run align -- AUDIO TEXT [--lang fr|en|es] [--split lines|sentences|auto] [--signal-only] [--json]";

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        lang: { type: "string", default: "fr" },
        split: { type: "string", default: "lines" },
        "signal-only": { type: "boolean", default: false },
        json: { type: "boolean", default: false },
      },
    });
  } catch (err) {
    return fail(String((err as Error).message));
  }
})();

const [audioPath, textPath] = positionals;
if (!audioPath || !textPath || positionals.length > 2) fail("AUDIO and TEXT are required");
const lang = values.lang as AlignLanguage;
if (!["fr", "en", "es"].includes(lang)) fail(`--lang must be fr, en or es (not ${lang})`);
const split = values.split as SplitMode;
if (!["lines", "sentences", "auto"].includes(split)) fail(`--split must be lines, sentences or auto`);

try {
  const [audio, text] = await Promise.all([readFile(audioPath), readFile(textPath, "utf8")]);
  const lines = splitScript(text, lang, split);
  const started = performance.now();
  const result = await alignAudio(new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength), lines, {
    lang,
    synthesis: values["signal-only"] ? "off" : "auto",
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : toWebVtt(result.cues));
  const doubtful = result.cues.filter((c) => c.doubtful).map((c) => c.index + 1);
  process.stderr.write(
    `align: ${result.cues.length} cues, mode ${result.mode}, ${seconds} s${doubtful.length ? `; to check: line ${doubtful.join(", ")}` : ""}\n`,
  );
} catch (err) {
  const code = (err as { code?: string }).code;
  process.stderr.write(`align: ${code ? `${code}: ` : ""}${(err as Error).message}\n`);
  process.exit(1);
}
