import { describe, expect, it } from "vitest";
import { formatSpeed } from "@/lib/format";
import { isLoopActive, loopJump, NO_LOOP, nextLoopState } from "./ab-loop";
import { cueEnd, cueIndexAt, parseTranscript, repeatPauseAfter } from "./cues";
import { actionForKey, isOwnedByControl, isTypingTarget } from "./shortcuts";
import { clampSpeed, SPEEDS, stepSpeed } from "./speed";
import { clampTime, formatClock, isNearEnd, resumePoint } from "./time";

const cues = parseTranscript("[00:00.5] Hello.\n[00:02] How are you?\nI am fine.\n[00:05.5] Goodbye.");

describe("transcript cues", () => {
  it("parses [mm:ss] lines and joins untimed lines to the previous cue", () => {
    expect(cues).toEqual([
      { start: 0.5, text: "Hello." },
      { start: 2, text: "How are you? I am fine." },
      { start: 5.5, text: "Goodbye." },
    ]);
    expect(parseTranscript("no times here")).toEqual([]);
  });

  it("finds the cue playing at a time", () => {
    expect(cueIndexAt(cues, 0)).toBe(-1);
    expect(cueIndexAt(cues, 0.5)).toBe(0);
    expect(cueIndexAt(cues, 1.99)).toBe(0);
    expect(cueIndexAt(cues, 2)).toBe(1);
    expect(cueIndexAt(cues, 99)).toBe(2);
    expect(cueIndexAt([], 3)).toBe(-1);
  });

  it("ends a cue at the next one, the last at the audio's end", () => {
    expect(cueEnd(cues, 0, 10)).toBe(2);
    expect(cueEnd(cues, 2, 10)).toBe(10);
    expect(cueEnd(cues, 2, null)).toBe(10.5);
    expect(cueEnd(cues, 7, 10)).toBe(0);
  });

  it("pauses after a cue for the cue's length in repeat mode", () => {
    expect(repeatPauseAfter(cues, 1.9, 2.05, 10)).toEqual({ index: 0, pauseMs: 1500 });
    expect(repeatPauseAfter(cues, 5.4, 5.6, 10)).toEqual({ index: 1, pauseMs: 3500 });
    expect(repeatPauseAfter(cues, 1.0, 1.2, 10)).toBeNull();
    // seeks and the last cue do not pause
    expect(repeatPauseAfter(cues, 0.6, 6, 10)).toBeNull();
    expect(repeatPauseAfter(cues, 9.8, 10, 10)).toBeNull();
  });
});

describe("A–B loop", () => {
  it("cycles A → B → cleared", () => {
    const a = nextLoopState(NO_LOOP, 1);
    expect(a).toEqual({ a: 1, b: null });
    const ab = nextLoopState(a, 3);
    expect(ab).toEqual({ a: 1, b: 3 });
    expect(isLoopActive(ab)).toBe(true);
    expect(nextLoopState(ab, 4)).toEqual(NO_LOOP);
  });

  it("restarts A when B would not be after it", () => {
    expect(nextLoopState({ a: 5, b: null }, 2)).toEqual({ a: 2, b: null });
  });

  it("jumps back to A at B, and when the learner seeks before A", () => {
    const loop = { a: 1, b: 3 };
    expect(loopJump(loop, 2)).toBeNull();
    expect(loopJump(loop, 3)).toBe(1);
    expect(loopJump(loop, 0)).toBe(1);
    expect(loopJump({ a: 1, b: null }, 9)).toBeNull();
  });
});

describe("shortcuts", () => {
  it("maps the keys", () => {
    expect(actionForKey({ key: " " })).toEqual({ type: "toggle" });
    expect(actionForKey({ key: "k" })).toEqual({ type: "toggle" });
    expect(actionForKey({ key: "K", shiftKey: true })).toEqual({ type: "toggle" });
    expect(actionForKey({ key: "j" })).toEqual({ type: "seekBy", seconds: -10 });
    expect(actionForKey({ key: "l" })).toEqual({ type: "seekBy", seconds: 10 });
    expect(actionForKey({ key: "ArrowLeft" })).toEqual({ type: "seekBy", seconds: -5 });
    expect(actionForKey({ key: "ArrowRight" })).toEqual({ type: "seekBy", seconds: 5 });
    expect(actionForKey({ key: "<", shiftKey: true })).toEqual({ type: "speed", direction: -1 });
    expect(actionForKey({ key: ">", shiftKey: true })).toEqual({ type: "speed", direction: 1 });
    expect(actionForKey({ key: ";", code: "Comma", shiftKey: true })).toEqual({
      type: "speed",
      direction: -1,
    });
    expect(actionForKey({ key: "m" })).toEqual({ type: "mute" });
    expect(actionForKey({ key: "?", shiftKey: true })).toEqual({ type: "help" });
    expect(actionForKey({ key: "0" })).toEqual({ type: "seekPercent", percent: 0 });
    expect(actionForKey({ key: "7" })).toEqual({ type: "seekPercent", percent: 70 });
    // AZERTY: the digit row gives "à" etc. without Shift
    expect(actionForKey({ key: "ç", code: "Digit9" })).toEqual({ type: "seekPercent", percent: 90 });
  });

  it("ignores modified keys and unknown keys", () => {
    expect(actionForKey({ key: "k", ctrlKey: true })).toBeNull();
    expect(actionForKey({ key: "l", metaKey: true })).toBeNull();
    expect(actionForKey({ key: "x" })).toBeNull();
  });

  it("stays off while typing", () => {
    expect(isTypingTarget({ tagName: "INPUT", type: "text" })).toBe(true);
    expect(isTypingTarget({ tagName: "INPUT", type: "checkbox" })).toBe(false);
    expect(isTypingTarget({ tagName: "TEXTAREA" })).toBe(true);
    expect(isTypingTarget({ tagName: "DIV", isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: "BUTTON", getAttribute: () => null })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it("leaves arrows to a focused slider", () => {
    const slider = { tagName: "DIV", getAttribute: (n: string) => (n === "role" ? "slider" : null) };
    expect(isOwnedByControl(slider, { type: "seekBy", seconds: 5 })).toBe(true);
    expect(isOwnedByControl(slider, { type: "seekBy", seconds: 10 })).toBe(false);
    expect(isOwnedByControl(slider, { type: "toggle" })).toBe(false);
  });
});

describe("speed", () => {
  it("steps between 0.5× and 2×", () => {
    expect(SPEEDS[0]).toBe(0.5);
    expect(SPEEDS[SPEEDS.length - 1]).toBe(2);
    expect(stepSpeed(1, 1)).toBe(1.1);
    expect(stepSpeed(1, -1)).toBe(0.9);
    expect(stepSpeed(2, 1)).toBe(2);
    expect(stepSpeed(0.5, -1)).toBe(0.5);
    expect(stepSpeed(1.3, 1)).toBe(1.5);
    expect(stepSpeed(1.3, -1)).toBe(1.25);
    expect(clampSpeed(5)).toBe(2);
    expect(clampSpeed(Number.NaN)).toBe(1);
  });

  it("labels speeds in the UI language", () => {
    expect(formatSpeed(1.25, "en")).toBe("1.25×");
    expect(formatSpeed(1.25, "fr")).toBe("1,25×");
    expect(formatSpeed(2, "fr")).toBe("2×");
  });
});

describe("time", () => {
  it("formats clocks", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(9.7)).toBe("0:09");
    expect(formatClock(75)).toBe("1:15");
    expect(formatClock(3725)).toBe("1:02:05");
    expect(formatClock(Number.NaN)).toBe("0:00");
  });

  it("clamps seeks and picks the resume point", () => {
    expect(clampTime(-3, 10)).toBe(0);
    expect(clampTime(12, 10)).toBe(10);
    expect(clampTime(12, Number.NaN)).toBe(12);
    expect(resumePoint(4.2, 10)).toBe(4.2);
    expect(resumePoint(9.5, 10)).toBe(0);
    expect(resumePoint(0.3, 10)).toBe(0);
    expect(resumePoint(null, 10)).toBe(0);
  });

  it("is near the end from 95 %", () => {
    expect(isNearEnd(9.5, 10)).toBe(true);
    expect(isNearEnd(9.4, 10)).toBe(false);
    expect(isNearEnd(1, Number.NaN)).toBe(false);
  });
});
