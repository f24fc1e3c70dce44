import { EXERCISE_KINDS, type ExerciseKind } from "@parlons/contract";
import { useCallback, useState } from "react";

/** The learner's practice settings, kept on this device: accents counted or not, kinds practised. */
export interface PracticeSettings {
  ignoreAccents: boolean;
  kinds: ExerciseKind[];
}

const KEY = "parlons.practiceSettings";
const DEFAULTS: PracticeSettings = { ignoreAccents: false, kinds: [...EXERCISE_KINDS] };

function read(): PracticeSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null") as Partial<PracticeSettings> | null;
    const kinds = (saved?.kinds ?? []).filter((k): k is ExerciseKind =>
      (EXERCISE_KINDS as readonly string[]).includes(k),
    );
    return {
      ignoreAccents: saved?.ignoreAccents === true,
      kinds: kinds.length > 0 ? EXERCISE_KINDS.filter((k) => kinds.includes(k)) : DEFAULTS.kinds,
    };
  } catch {
    return DEFAULTS;
  }
}

export function usePracticeSettings() {
  const [settings, setSettings] = useState(read);
  const update = useCallback((change: Partial<PracticeSettings>) => {
    setSettings((old) => {
      const next = { ...old, ...change };
      if (next.kinds.length === 0) next.kinds = old.kinds;
      try {
        localStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        // storage disabled: the setting holds for this visit
      }
      return next;
    });
  }, []);
  return { settings, update };
}
