import { useEffect, useRef } from "react";
import { drawPeaks } from "@/features/lessons/lib/waveform";

/** A waveform (peaks drawn as bars) under its caption. */
export function Wave({ peaks, label, testId }: { peaks: number[] | null; label: string; testId: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (canvas && peaks) drawPeaks(canvas, peaks, getComputedStyle(canvas).color || "#1677ff");
  }, [peaks]);
  return (
    <figure className="speak__wave">
      <figcaption>{label}</figcaption>
      <canvas
        ref={ref}
        className={`speak__canvas speak__canvas--${testId}`}
        width={480}
        height={56}
        role="img"
        aria-label={label}
        data-testid={`wave-${testId}`}
        data-drawn={peaks ? "true" : "false"}
      />
    </figure>
  );
}
