import { afterEach, describe, expect, it, vi } from "vitest";
import { currentToasts, dismissToast, subscribeToasts, TOAST_MS, toast } from "./toast";

afterEach(() => {
  for (const t of currentToasts()) dismissToast(t.id);
  vi.useRealTimers();
});

describe("toasts", () => {
  it("shows a message to the listeners and takes it away after its time", () => {
    vi.useFakeTimers();
    const heard = vi.fn();
    const stop = subscribeToasts(heard);
    toast("success", "Cours téléchargé");
    expect(currentToasts().map((t) => t.text)).toEqual(["Cours téléchargé"]);
    expect(heard).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(TOAST_MS.success - 1);
    expect(currentToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(currentToasts()).toHaveLength(0);
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
  });

  it("says one thing once: the same text of the same kind is not shown twice", () => {
    toast("error", "Réseau indisponible");
    toast("error", "Réseau indisponible");
    toast("success", "Réseau indisponible");
    expect(currentToasts().map((t) => t.kind)).toEqual(["error", "success"]);
  });

  it("keeps the three latest, and errors stay longer than successes", () => {
    for (const text of ["a", "b", "c", "d"]) toast("info", text);
    expect(currentToasts().map((t) => t.text)).toEqual(["b", "c", "d"]);
    expect(TOAST_MS.error).toBeGreaterThan(TOAST_MS.success);
  });

  it("closes one on demand, leaving the others", () => {
    toast("info", "un");
    toast("info", "deux");
    const [first] = currentToasts();
    dismissToast(first?.id ?? 0);
    expect(currentToasts().map((t) => t.text)).toEqual(["deux"]);
  });
});
