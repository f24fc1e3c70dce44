import { HANDS_FREE_KINDS, type HandsFreeKind } from "@parlons/contract";
import { useCallback, useState } from "react";

const KEY = "parlons.handsFreeKinds";

function read(): HandsFreeKind[] {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null") as unknown;
    const kinds = HANDS_FREE_KINDS.filter((k) => Array.isArray(saved) && saved.includes(k));
    return kinds.length > 0 ? kinds : [...HANDS_FREE_KINDS];
  } catch {
    return [...HANDS_FREE_KINDS];
  }
}

/** The learner's hands-free setting, kept on this device: echo, recall or both (never none). */
export function useHandsFreeKinds() {
  const [kinds, set] = useState(read);
  const setKinds = useCallback((value: HandsFreeKind[]) => {
    if (value.length === 0) return;
    const next = HANDS_FREE_KINDS.filter((k) => value.includes(k));
    set(next);
    try {
      localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      // storage disabled: the setting holds for this visit
    }
  }, []);
  return { kinds, setKinds };
}
