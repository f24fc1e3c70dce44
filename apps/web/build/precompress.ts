import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this, the headers cost more than the bytes saved. */
const MIN_BYTES = 512;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // .vite/ holds the build manifest, read by the server, never sent compressed
    if (entry.isDirectory()) {
      if (entry.name !== ".vite") yield* files(full);
    } else yield full;
  }
}

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip -9) next to every text asset of the
 * build, once, so that the server sends compressed bytes without compressing per request.
 * A variant that would not be smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = "";
  return {
    name: "parlons-precompress",
    apply: "build",
    configResolved(config) {
      // the server-side bundle is read from disk by the server, never sent
      outDir = config.build.ssr ? "" : path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      if (!outDir) return;
      for (const file of files(outDir)) {
        if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
        const raw = readFileSync(file);
        const br = brotliCompressSync(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
