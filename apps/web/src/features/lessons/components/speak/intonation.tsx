import { useEffect, useRef } from "react";
import { sharpCanvas } from "@/features/lessons/lib/waveform";

/** Semitones shown above and below each speaker's median pitch. */
const RANGE = 8;

function drawContours(canvas: HTMLCanvasElement, model: (number | null)[], learner: (number | null)[]) {
  const sharp = sharpCanvas(canvas);
  if (!sharp) return;
  const { ctx, width, height } = sharp;
  ctx.strokeStyle = "rgba(0, 0, 0, 0.15)";
  ctx.beginPath();
  ctx.moveTo(0, height / 2);
  ctx.lineTo(width, height / 2);
  ctx.stroke();
  const line = (values: (number | null)[], color: string, dash: number[]) => {
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.setLineDash(dash);
    ctx.beginPath();
    let drawing = false;
    values.forEach((v, i) => {
      if (v === null) {
        drawing = false;
        return;
      }
      const x = (i / Math.max(1, values.length - 1)) * width;
      const y = height / 2 - (Math.max(-RANGE, Math.min(RANGE, v)) / RANGE) * (height / 2 - 3);
      if (drawing) ctx.lineTo(x, y);
      else ctx.moveTo(x, y);
      drawing = true;
    });
    ctx.stroke();
  };
  line(model, "#1d39c4", []);
  line(learner, "#d4380d", [5, 3]);
  ctx.setLineDash([]);
}

/** Both pitch contours overlaid, the learner's carried onto the line's time by the alignment. */
export function Intonation({
  model,
  learner,
  caption,
  label,
}: {
  model: (number | null)[];
  learner: (number | null)[];
  caption: string;
  label: string;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (ref.current) drawContours(ref.current, model, learner);
  }, [model, learner]);
  return (
    <figure className="speak__wave">
      <figcaption>{caption}</figcaption>
      <canvas
        ref={ref}
        className="speak__canvas speak__canvas--contour"
        width={480}
        height={96}
        role="img"
        aria-label={label}
        data-testid="pronunciation-contour"
        data-points={model.filter((v) => v !== null).length}
      />
    </figure>
  );
}
