import type { ComponentType } from "react";
import { loadAntdRoot } from "./antd-outlet";

/**
 * A component built with antd, wrapped in antd's providers, both loaded together: nothing above
 * the routes loads antd (the home and course pages and the signed-in shell are plain markup, kept
 * light), so the pages, dialogs and tools that use it bring its providers (and the rest of the
 * texts) with their own chunk.
 */
export async function withAntd<P extends object>(load: Promise<ComponentType<P>>): Promise<ComponentType<P>> {
  const [Component, AntdRoot] = await Promise.all([load, loadAntdRoot()]);
  return function WithAntd(props: P) {
    return (
      <AntdRoot>
        <Component {...props} />
      </AntdRoot>
    );
  };
}
