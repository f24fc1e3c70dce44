import type { ReactNode } from "react";

/** A card's title after its icon (the icon is decoration: hidden from screen readers by the caller). */
export function IconTitle({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <span>
      {icon} {children}
    </span>
  );
}
