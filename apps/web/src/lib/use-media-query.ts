import { useSyncExternalStore } from "react";

/** Below this width the signed-in shell is a phone shell (menu in a drawer, compact header). */
const PHONE_QUERY = "(max-width: 767.98px)";

/**
 * Whether a CSS media query matches, kept in sync with the window. The server render and
 * the first client pass both answer `false` (desktop), so hydration never mismatches.
 */
function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export const useIsPhone = () => useMediaQuery(PHONE_QUERY);
