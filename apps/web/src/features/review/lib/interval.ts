import { intlLocale } from "@/lib/format";
import type { Lang } from "@/lib/locale-path";

const UNITS = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
] as const;

/**
 * A grade's next interval, short, in the reader's language: "10 min", "2 h", "3 j" / "3d"; months
 * past 60 days ("4 mois"). Under a minute reads as one minute.
 */
export function formatInterval(seconds: number, lang: Lang): string {
  const locale = intlLocale(lang);
  const unit = (name: string, value: number) =>
    new Intl.NumberFormat(locale, {
      style: "unit",
      unit: name,
      unitDisplay: "short",
      maximumFractionDigits: 0,
    }).format(value);
  if (seconds >= 60 * 86_400) return unit("month", Math.round(seconds / (30 * 86_400)));
  for (const [name, size] of UNITS) if (seconds >= size) return unit(name, Math.round(seconds / size));
  return unit("minute", 1);
}
