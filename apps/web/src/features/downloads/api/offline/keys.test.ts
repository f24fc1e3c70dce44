import { describe, expect, it } from "vitest";
import { audioCacheKey, audioLessonId, isAppNavigation, isOfflineRead } from "./keys";

describe("offline keys", () => {
  const id = "0190A0B0-0000-7000-8000-000000000001";

  it("keys a lesson's audio on its id, whatever the URL's signature", () => {
    expect(audioLessonId(`/api/v1/media/audio/${id}`)).toBe(id.toLowerCase());
    expect(audioCacheKey(id)).toBe(`/offline/audio/${id.toLowerCase()}`);
    expect(audioLessonId("/api/v1/media/images/x.png")).toBeNull();
    expect(audioLessonId(`/api/v1/media/audio/${id}/more`)).toBeNull();
  });

  it("keeps the course and lessons reads, nothing else of the API", () => {
    expect(isOfflineRead("/api/v1/courses/single/abc")).toBe(true);
    expect(isOfflineRead(`/api/v1/courses/${id}/lessons`)).toBe(true);
    expect(isOfflineRead("/api/v1/practice/session")).toBe(true);
    expect(isOfflineRead("/api/v1/practice/results")).toBe(false);
    expect(isOfflineRead("/api/v1/practice/hands-free")).toBe(true);
    expect(isOfflineRead("/api/v1/practice/hands-free/grades")).toBe(false);
    expect(isOfflineRead(`/api/v1/courses/${id}/lessons/done-customer`)).toBe(false);
    expect(isOfflineRead("/api/v1/user/me")).toBe(false);
    expect(isOfflineRead("/api/v1/review/due")).toBe(true);
    expect(isOfflineRead("/api/v1/review/grade")).toBe(false);
  });

  it("answers app pages with the shell offline, never the API or server files", () => {
    expect(isAppNavigation("/courses/x/lessons/y")).toBe(true);
    expect(isAppNavigation("/en/downloads")).toBe(true);
    expect(isAppNavigation("/api/docs")).toBe(false);
    expect(isAppNavigation("/api")).toBe(false);
    expect(isAppNavigation("/sitemap.xml")).toBe(false);
    expect(isAppNavigation("/sw.js")).toBe(false);
  });
});
