import type { AbstractNode, IconDefinition } from "@ant-design/icons-svg/lib/types";
import { createElement, type ReactNode } from "react";

function draw(node: AbstractNode, key?: number, extra?: Record<string, string>): ReactNode {
  return createElement(
    node.tag,
    { ...node.attrs, ...extra, key },
    ...(node.children ?? []).map((c, i) => draw(c, i)),
  );
}

const SIZE = { width: "1em", height: "1em", fill: "currentColor", focusable: "false", "aria-hidden": "true" };

/**
 * One of antd's icons (the same drawings, from @ant-design/icons-svg), without @ant-design/icons'
 * runtime (context, style insertion, colours): the pages that load no antd use these. Decorative.
 */
export function PlainIcon({ icon, className }: { icon: IconDefinition; className?: string }) {
  const svg = typeof icon.icon === "function" ? icon.icon("currentColor", "currentColor") : icon.icon;
  return (
    <span className={className ? `icon ${className}` : "icon"} aria-hidden="true">
      {draw(svg, undefined, SIZE)}
    </span>
  );
}
