import { describe, expect, it } from "vitest";
import { formatDuration } from "@/lib/format";
import { parseUploadValue, uploadValue } from "@/lib/upload";
import { courseTitle, weekStart } from "./course-queries";

describe("upload value (spec §3: path:duration)", () => {
  it("joins and splits path and duration", () => {
    expect(uploadValue({ file_path: "audio/abc.mp3", audioDuration: 10 })).toBe("audio/abc.mp3:10");
    expect(uploadValue({ file_path: "images/c.png" })).toBe("images/c.png");
    expect(parseUploadValue("audio/abc.mp3:10")).toEqual({ path: "audio/abc.mp3", duration: 10 });
    expect(parseUploadValue("images/c.png")).toEqual({ path: "images/c.png", duration: null });
    expect(parseUploadValue(null)).toEqual({ path: "", duration: null });
  });
});

describe("course helpers", () => {
  it("starts the week on Monday, local time", () => {
    const start = new Date(weekStart(new Date(2026, 10, 21, 15, 30))); // a Saturday
    expect([start.getDay(), start.getDate(), start.getHours()]).toEqual([1, 16, 0]);
    const monday = new Date(weekStart(new Date(2026, 10, 16, 0, 5)));
    expect(monday.getDate()).toBe(16);
  });

  it("formats durations and picks the title of the UI language", () => {
    expect(formatDuration(45, "en")).toMatch(/^45\s?s/);
    expect(formatDuration(600, "fr")).toMatch(/^10\s?min/);
    expect(formatDuration(3900, "en")).toMatch(/^1\s?hr? 5\s?min/);
    expect(courseTitle({ title_fr: "Anglais", title_en: "English" }, "fr")).toBe("Anglais");
    expect(courseTitle({ title_fr: "Anglais", title_en: "" }, "en")).toBe("Anglais");
  });
});
