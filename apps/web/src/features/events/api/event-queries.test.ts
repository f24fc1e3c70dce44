import { describe, expect, it } from "vitest";
import { formatDateRange } from "@/lib/format";
import { eventTitle } from "./event-queries";

describe("events helpers", () => {
  it("formats the dates of an event in the UI language", () => {
    const fr = formatDateRange("2026-07-14T16:00:00Z", "2026-07-14T17:30:00Z", "fr", "Europe/Paris");
    expect(fr).toBe("mardi 14 juillet 2026, 18:00 – 19:30");
    const en = formatDateRange("2026-07-14T16:00:00Z", "2026-07-14T17:30:00Z", "en", "Europe/London");
    expect(en).toBe("Tuesday, 14 July 2026, 17:00 – 18:30");
    const days = formatDateRange("2026-07-14T16:00:00Z", "2026-07-15T08:00:00Z", "en", "UTC");
    expect(days).toBe("14 Jul 2026, 16:00 – 15 Jul 2026, 08:00");
  });

  it("picks the title of the UI language, the other one when empty", () => {
    expect(eventTitle({ title_fr: "Club", title_en: "Club EN" }, "en")).toBe("Club EN");
    expect(eventTitle({ title_fr: "Club", title_en: "" }, "en")).toBe("Club");
  });
});
