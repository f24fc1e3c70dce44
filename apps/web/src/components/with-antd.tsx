import type { ComponentType } from "react";
import { loadAllTexts } from "../lib/i18n";

/**
 * A component built with antd, wrapped in antd's providers, both loaded together: nothing above
 * the routes loads antd (the home and course pages are plain markup, kept light), so the pages,
 * dialogs and tools that use it bring its providers (and the rest of the texts) with their own chunk.
 */
export async function withAntd<P extends object>(load: Promise<ComponentType<P>>): Promise<ComponentType<P>> {
  const [Component, { AntdRoot }] = await Promise.all([load, import("./antd-root"), loadAllTexts()]);
  return function WithAntd(props: P) {
    return (
      <AntdRoot>
        <Component {...props} />
      </AntdRoot>
    );
  };
}
