import { describe, expect, it } from "vitest";
import { CueFormatError, cuesToTimestamps, cuesToVtt, importCues, vttToCues } from "./cue-formats";

const lines = [
  { start: 0.5, end: 2.1, text: "Hello.", translation_fr: "Bonjour.", translation_en: "A greeting." },
  { start: 2.1, end: 4.7, text: "Fish & <chips>", translation_fr: "", translation_en: "" },
  { start: 4.7, end: 3725.25, text: "Goodbye!", translation_fr: "Au revoir !", translation_en: "" },
];

describe("WebVTT", () => {
  it("writes the lines with their translations and reads them back the same", () => {
    const vtt = cuesToVtt(lines);
    expect(vtt).toContain("WEBVTT");
    expect(vtt).toContain(
      "00:00:00.500 --> 00:00:02.100\nHello.\n<lang fr>Bonjour.</lang>\n<lang en>A greeting.</lang>",
    );
    expect(vtt).toContain("Fish &amp; &lt;chips&gt;");
    expect(vtt).toContain("01:02:05.250");
    expect(vttToCues(vtt)).toEqual(lines);
  });

  it("reads files from elsewhere: voice tags and styles dropped, short times, notes skipped", () => {
    const file = [
      "\uFEFFWEBVTT - from a captioning tool",
      "",
      "NOTE made elsewhere",
      "",
      "intro",
      "00:01.000 --> 00:03.500 align:start",
      "<v Anna>Hi <b>there</b></v>",
      "",
      "00:03.500 --> 00:05.000",
      "Two",
      "lines",
    ].join("\n");
    expect(vttToCues(file)).toEqual([
      { start: 1, end: 3.5, text: "Hi there", translation_fr: "", translation_en: "" },
      { start: 3.5, end: 5, text: "Two lines", translation_fr: "", translation_en: "" },
    ]);
  });

  it("refuses a file that is not WebVTT", () => {
    expect(() => importCues("WEBVTT\n\n00:01.000 --> 00:00.500\nbackwards")).toThrow(CueFormatError);
    expect(() => vttToCues("nothing here")).toThrow(CueFormatError);
  });
});

describe("[mm:ss] format", () => {
  it("imports timed lines, each ending where the next starts, the last at the audio's end", () => {
    expect(importCues("[00:00] Hola.\n[00:02.5] Buenos\ndías.\n[1:00:01] Tarde.", 3700)).toEqual([
      { start: 0, end: 2.5, text: "Hola.", translation_fr: "", translation_en: "" },
      { start: 2.5, end: 3601, text: "Buenos días.", translation_fr: "", translation_en: "" },
      { start: 3601, end: 3700, text: "Tarde.", translation_fr: "", translation_en: "" },
    ]);
  });

  it("exports lines with tenths only when they have some, and reads them back", () => {
    const text = cuesToTimestamps(lines);
    expect(text).toBe("[00:00.5] Hello.\n[00:02.1] Fish & <chips>\n[00:04.7] Goodbye!");
    expect(importCues(text, 10).map((c) => [c.start, c.text])).toEqual(lines.map((c) => [c.start, c.text]));
  });

  it("refuses a text without any time", () => {
    expect(() => importCues("just words")).toThrow(CueFormatError);
  });
});
