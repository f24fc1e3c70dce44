// node-webvtt 2.0.0 names a types.d.ts in its package.json but does not ship it: the part we use.
declare module "node-webvtt" {
  export interface WebVttCue {
    identifier: string;
    start: number;
    end: number;
    text: string;
    styles: string;
  }
  export interface WebVttParsed {
    valid: boolean;
    cues: WebVttCue[];
    errors: unknown[];
  }
  export function parse(input: string, options?: { strict?: boolean; meta?: boolean }): WebVttParsed;
  export function compile(input: { valid: boolean; cues: WebVttCue[] }): string;
  const webvtt: { parse: typeof parse; compile: typeof compile };
  export default webvtt;
}
