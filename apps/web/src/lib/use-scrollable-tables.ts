import { useEffect } from "react";

/**
 * A table wider than the screen scrolls sideways in its own box (`.ant-table-content`). A keyboard
 * user can scroll it only if the box takes the focus (WCAG 2.1.1; axe's
 * scrollable-region-focusable): while a box overflows it gets `tabindex="0"`, the region role and
 * a name; once it fits again it leaves the tab order. Watches the page's content for tables that
 * appear, fill or change size.
 */
export function useScrollableTables(container: string, label: string, ready = true): void {
  useEffect(() => {
    const root = ready ? document.querySelector(container) : null;
    if (!root) return;
    const update = () => {
      for (const box of root.querySelectorAll<HTMLElement>(".ant-table-content")) {
        const scrolls = box.scrollWidth > box.clientWidth + 1;
        if (scrolls && box.tabIndex !== 0) {
          box.tabIndex = 0;
          box.setAttribute("role", "region");
          box.setAttribute("aria-label", label);
        } else if (!scrolls && box.hasAttribute("tabindex")) {
          box.removeAttribute("tabindex");
          box.removeAttribute("role");
          box.removeAttribute("aria-label");
        }
      }
    };
    let frame = 0;
    const later = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(update);
    };
    const mutations = new MutationObserver(later);
    mutations.observe(root, { childList: true, subtree: true });
    window.addEventListener("resize", later);
    update();
    return () => {
      cancelAnimationFrame(frame);
      mutations.disconnect();
      window.removeEventListener("resize", later);
    };
  }, [container, label, ready]);
}
