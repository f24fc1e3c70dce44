import type { CSSProperties } from "react";

interface DateRange {
  from: string;
  to: string;
}

/**
 * A period's first and last days as two labelled native date inputs (keyboard and screen-reader
 * friendly on every platform), the start kept before the end by their min and max.
 */
export function DateRangeFields({
  value,
  onChange,
  labels,
  testIds,
  labelStyle,
  inputClassName,
}: {
  value: DateRange;
  onChange: (next: DateRange) => void;
  labels: DateRange;
  testIds: DateRange;
  labelStyle?: CSSProperties;
  inputClassName?: string;
}) {
  const field = (which: keyof DateRange) => (
    <label style={labelStyle}>
      {labels[which]}
      <input
        type="date"
        className={inputClassName}
        value={value[which]}
        {...(which === "from" ? { max: value.to } : { min: value.from })}
        onChange={(e) => onChange({ ...value, [which]: e.target.value })}
        data-testid={testIds[which]}
      />
    </label>
  );
  return (
    <>
      {field("from")}
      {field("to")}
    </>
  );
}
