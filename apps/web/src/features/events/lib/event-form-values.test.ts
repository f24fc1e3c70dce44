import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { EMPTY_EVENT, toEventBody } from "./event-form-values";

describe("event form values", () => {
  it("trims texts, sends empty optional fields as null and dates as ISO", () => {
    const body = toEventBody({
      ...EMPTY_EVENT,
      title_fr: " Club ",
      title_en: "Club",
      location: "  ",
      online_url: "https://meet.example.com/x",
      starts_at: dayjs("2030-01-02T18:00:00Z"),
      ends_at: dayjs("2030-01-02T19:00:00Z"),
      capacity: 2,
    });
    expect(body).toMatchObject({
      title_fr: "Club",
      location: null,
      online_url: "https://meet.example.com/x",
      starts_at: "2030-01-02T18:00:00.000Z",
      ends_at: "2030-01-02T19:00:00.000Z",
      capacity: 2,
      kind: "online",
      active: true,
    });
  });
});
