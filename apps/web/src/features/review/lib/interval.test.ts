import { describe, expect, it } from "vitest";
import { formatInterval as raw } from "./interval";

/** Spaces as plain spaces (French puts a narrow no-break space before the unit). */
const formatInterval = (...args: Parameters<typeof raw>) => raw(...args).replace(/\s/g, " ");

describe("a grade's next interval", () => {
  it("reads short, in minutes, hours, days or months", () => {
    expect(formatInterval(30, "en")).toBe("1 min");
    expect(formatInterval(600, "en")).toBe("10 mins");
    expect(formatInterval(3 * 3600, "en")).toBe("3 hrs");
    expect(formatInterval(2 * 86_400, "en")).toBe("2 days");
    expect(formatInterval(90 * 86_400, "en")).toBe("3 mths");
    expect(formatInterval(2 * 86_400, "fr")).toBe("2 j");
    expect(formatInterval(600, "es")).toBe("10 min");
  });
});
