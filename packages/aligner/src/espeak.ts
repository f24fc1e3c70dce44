import { spawn } from "node:child_process";

/**
 * espeak-ng run as a separate process (never linked): `input` on its standard input (nothing in it
 * can be an option), the WAV it writes on its standard output.
 */
export function espeakWav(command: string, args: string[], input: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, "--stdin", "--stdout"], { stdio: ["pipe", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`espeak-ng exited with ${code}`));
      else {
        const all = Buffer.concat(chunks);
        resolve(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
      }
    });
    child.stdin.end(input, "utf8");
  });
}
