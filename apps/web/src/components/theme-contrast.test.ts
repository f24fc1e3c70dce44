import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appTheme } from "./antd-root";

/** WCAG 2.x contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r = 0, g = 0, bl = 0] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe("primary buttons (the upgrade button among them)", () => {
  it("keep white text at 4.5:1 or more at rest, hovered and pressed (antd pages)", () => {
    const { colorPrimary, colorPrimaryHover, colorPrimaryActive } = appTheme.token;
    for (const colour of [colorPrimary, colorPrimaryHover, colorPrimaryActive]) {
      expect(contrast(colour, "#ffffff"), colour).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("keep white text at 4.5:1 or more on the plain pages, and links stay readable when hovered", () => {
    const css = readFileSync(new URL("../site.css", import.meta.url), "utf8");
    const backgrounds = [...css.matchAll(/\.btn--primary[^{]*\{[^}]*background: (#[0-9a-f]{6})/g)].map(
      (m) => m[1],
    );
    const hovers = [...css.matchAll(/:hover[^{]*\{[^}]*color: (#[0-9a-f]{6})/g)].map((m) => m[1]);
    expect(backgrounds.length).toBeGreaterThanOrEqual(3);
    for (const colour of [...backgrounds, ...hovers]) {
      expect(contrast(colour ?? "", "#ffffff"), colour).toBeGreaterThanOrEqual(4.5);
    }
  });
});
