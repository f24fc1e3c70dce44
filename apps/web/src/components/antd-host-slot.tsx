import { useEffect, useState } from "react";
import { useAntdHost } from "../lib/antd-host";

/**
 * Where antd's persistent host mounts, beside the routes (so that it never remounts them), once
 * some page has loaded antd. Never on the server nor during hydration: the markup must match.
 */
export function AntdHostSlot() {
  const Host = useAntdHost();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted && Host ? <Host /> : null;
}
