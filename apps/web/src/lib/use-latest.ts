import { useEffect, useState } from "react";

/**
 * A value as last rendered, read from callbacks that must keep their identity across renders
 * (the player's handlers): `ref.current` follows the value without making the callbacks change.
 */
export function useLatest<T>(value: T): { current: T } {
  const [ref] = useState(() => ({ current: value }));
  useEffect(() => {
    ref.current = value;
  }, [ref, value]);
  return ref;
}
