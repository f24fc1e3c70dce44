import { useEffect, useState } from "react";
import { useNavigation } from "react-router";

const THROTTLE_MS = 200;
const MAX_DURATION_MS = 5000;

/** Thin top bar during route changes (spec §9): only after 200 ms, never longer than 5 s. */
export function LoadingBar() {
  const busy = useNavigation().state !== "idle";
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const show = setTimeout(() => setVisible(true), THROTTLE_MS);
    const hide = setTimeout(() => setVisible(false), MAX_DURATION_MS);
    return () => {
      clearTimeout(show);
      clearTimeout(hide);
    };
  }, [busy]);

  return visible ? (
    <div className="loading-bar" role="progressbar" aria-hidden="true" data-testid="loading-bar">
      <div className="loading-bar__fill" style={{ animationDuration: `${MAX_DURATION_MS}ms` }} />
    </div>
  ) : null;
}
