import { ColumnWidthOutlined, MergeCellsOutlined, ScissorOutlined } from "@ant-design/icons";
import { Button, Space, Typography } from "antd";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import WaveSurfer from "wavesurfer.js";
import RegionsPlugin, { type Region } from "wavesurfer.js/plugins/regions";
import { NUDGE, nudgeLine, placeLine, type Span } from "../lib/line-bounds";
import { findPauses, snapToPauses } from "../lib/pauses";

export interface WaveLine extends Span {
  key: string;
  doubtful: boolean;
}

type Regions = ReturnType<typeof RegionsPlugin.create>;

const COLOR = {
  line: "rgba(22, 119, 255, 0.12)",
  selected: "rgba(22, 119, 255, 0.32)",
  doubtful: "rgba(250, 140, 22, 0.3)",
};
const ZOOMS = [0, 50, 100, 200, 400];

/**
 * The lesson's waveform (wavesurfer.js) with each line as a region: drag a region or its edges,
 * or, from the keyboard, choose a line with ↑/↓ and move its start (←/→) or end (Shift+←/→) by
 * 50 ms; Space plays it; S splits the line under the playhead there, M merges it with the next;
 * P snaps its edges to the nearest pauses (found once in the decoded audio). A move that would
 * overlap a neighbour or pass the audio's end stops there and says so. Loaded in its own chunk,
 * with the lines editor.
 */
export default function WaveformEditor(props: {
  url: string;
  duration: number | null;
  lines: WaveLine[];
  selected: number;
  onSelect: (index: number) => void;
  onPlace: (index: number, span: Span) => void;
  /** Split the line under the playhead there; false when the playhead is on no line (or at its edge). */
  onSplit: (at: number) => boolean;
  /** Merge the line under the playhead (else the selected one) with the next; false when there is none. */
  onMerge: (at: number) => boolean;
}) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const regions = useRef<Regions | null>(null);
  const cursor = useRef(0);
  const pauses = useRef<Span[]>([]);
  const latest = useRef(props);
  latest.current = props;
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const [zoom, setZoom] = useState(0);
  const [notice, setNotice] = useState("");

  // what the waveform's handlers read: the latest props, and where a dragged line may go
  const place = (index: number, wanted: Span) => {
    const { lines, duration, onPlace } = latest.current;
    const placed = placeLine(lines, index, wanted, surfer.current?.getDuration() || duration);
    setNotice(placed.clamped ? t("courses:waveform.clamped", { n: index + 1 }) : "");
    onPlace(index, { start: placed.start, end: placed.end });
    return placed;
  };
  const placeRef = useRef(place);
  placeRef.current = place;

  // one waveform per audio URL; the regions follow the lines below
  useEffect(() => {
    if (!container.current) return;
    const plugin = RegionsPlugin.create();
    const ws = WaveSurfer.create({
      container: container.current,
      url: props.url,
      height: 96,
      waveColor: "#8c8c8c",
      progressColor: "#1677ff",
      cursorColor: "#d4380d",
      dragToSeek: true,
      plugins: [plugin],
    });
    surfer.current = ws;
    regions.current = plugin;
    ws.on("ready", () => {
      const decoded = ws.getDecodedData();
      pauses.current = decoded ? findPauses(decoded.getChannelData(0), decoded.sampleRate) : [];
      setState("ready");
    });
    // the playhead: where the audio plays, or where staff last clicked (on the wave or a region)
    ws.on("timeupdate", (at: number) => {
      if (ws.isPlaying()) cursor.current = at;
    });
    const onClick = (e: MouseEvent) => {
      const box = ws.getWrapper().getBoundingClientRect();
      const duration = ws.getDuration();
      if (box.width <= 0 || duration <= 0) return;
      cursor.current = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width)) * duration;
      ws.setTime(cursor.current);
    };
    const host = container.current;
    host.addEventListener("click", onClick, { capture: true });
    ws.on("error", () => setState("error"));
    plugin.on("region-updated", (region: Region) => {
      const index = latest.current.lines.findIndex((l) => l.key === region.id);
      if (index < 0) return;
      latest.current.onSelect(index);
      const placed = placeRef.current(index, { start: region.start, end: region.end });
      if (placed.clamped) region.setOptions({ start: placed.start, end: placed.end });
    });
    // a click on a region selects its line (the click moves the playhead too: below)
    plugin.on("region-clicked", (region: Region, e: MouseEvent) => {
      e.stopPropagation();
      const index = latest.current.lines.findIndex((l) => l.key === region.id);
      if (index >= 0) latest.current.onSelect(index);
    });
    return () => {
      host.removeEventListener("click", onClick, { capture: true });
      ws.destroy();
      surfer.current = null;
      regions.current = null;
    };
  }, [props.url]);

  // the regions follow the lines (added, moved, removed, coloured)
  useEffect(() => {
    const plugin = regions.current;
    if (!plugin || state !== "ready") return;
    const existing = new Map(plugin.getRegions().map((r: Region) => [r.id, r] as const));
    props.lines.forEach((line, i) => {
      const color = i === props.selected ? COLOR.selected : line.doubtful ? COLOR.doubtful : COLOR.line;
      const region = existing.get(line.key);
      existing.delete(line.key);
      if (!region)
        plugin.addRegion({ id: line.key, start: line.start, end: line.end, color, content: `${i + 1}` });
      else if (region.start !== line.start || region.end !== line.end || region.color !== color)
        region.setOptions({ start: line.start, end: line.end, color, content: `${i + 1}` });
    });
    for (const r of existing.values()) r.remove();
  }, [props.lines, props.selected, state]);

  useEffect(() => {
    if (state === "ready") surfer.current?.zoom(ZOOMS[zoom] ?? 0);
  }, [zoom, state]);

  const playhead = () => cursor.current;
  const split = () => {
    const at = playhead();
    setNotice(props.onSplit(at) ? "" : t("courses:waveform.splitNone", { at: at.toFixed(2) }));
  };
  const merge = () => setNotice(props.onMerge(playhead()) ? "" : t("courses:waveform.mergeNone"));
  // the selected line's edges on the nearest pauses, within its room
  const snap = () => {
    const index = props.selected;
    const line = props.lines[index];
    if (!line) return;
    const snapped = snapToPauses(line, pauses.current);
    if (snapped) place(index, snapped);
    else setNotice(t("courses:waveform.snapNone", { n: index + 1 }));
  };

  const play = (index: number) => {
    const line = props.lines[index];
    if (line) void surfer.current?.play(line.start, line.end);
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const { lines, selected, onSelect, duration } = props;
    const line = lines[selected];
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      onSelect(Math.max(0, Math.min(lines.length - 1, selected + (e.key === "ArrowUp" ? -1 : 1))));
    } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && line) {
      const delta = e.key === "ArrowLeft" ? -NUDGE : NUDGE;
      const moved = nudgeLine(
        lines,
        selected,
        e.shiftKey ? "end" : "start",
        delta,
        surfer.current?.getDuration() || duration,
      );
      if (!moved) return;
      setNotice(moved.clamped ? t("courses:waveform.clamped", { n: selected + 1 }) : "");
      props.onPlace(selected, { start: moved.start, end: moved.end });
    } else if (e.key === " " || e.key === "Enter") {
      play(selected);
    } else if (e.key === "s" || e.key === "S") {
      split();
    } else if (e.key === "m" || e.key === "M") {
      merge();
    } else if (e.key === "p" || e.key === "P") {
      snap();
    } else if (e.key === "+" || e.key === "-") {
      setZoom((z) => Math.max(0, Math.min(ZOOMS.length - 1, z + (e.key === "+" ? 1 : -1))));
    } else return;
    e.preventDefault();
  };

  const current = props.lines[props.selected];
  return (
    <div className="waveform-editor" data-testid="waveform-editor">
      <div
        ref={container}
        className="waveform-editor__wave"
        role="application"
        aria-label={t("courses:waveform.label")}
        aria-describedby="waveform-keys"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the waveform takes the keyboard (role application)
        tabIndex={0}
        onKeyDown={onKey}
        data-testid="waveform"
        data-state={state}
      />
      {state === "loading" && (
        <Typography.Text type="secondary">{t("courses:waveform.loading")}</Typography.Text>
      )}
      {state === "error" && <Typography.Text type="danger">{t("courses:waveform.error")}</Typography.Text>}
      <Space wrap className="waveform-editor__tools">
        <Button size="small" onClick={() => setZoom((z) => Math.max(0, z - 1))} disabled={zoom === 0}>
          {t("courses:waveform.zoomOut")}
        </Button>
        <Button
          size="small"
          onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
          disabled={zoom === ZOOMS.length - 1}
        >
          {t("courses:waveform.zoomIn")}
        </Button>
        <Button size="small" onClick={() => play(props.selected)} disabled={!current || state !== "ready"}>
          {t("courses:waveform.playSelected")}
        </Button>
        <Button
          size="small"
          icon={<ScissorOutlined />}
          onClick={split}
          disabled={state !== "ready"}
          data-testid="waveform-split"
        >
          {t("courses:waveform.split")}
        </Button>
        <Button
          size="small"
          icon={<MergeCellsOutlined />}
          onClick={merge}
          disabled={state !== "ready" || props.lines.length < 2}
          data-testid="waveform-merge"
        >
          {t("courses:waveform.merge")}
        </Button>
        <Button
          size="small"
          icon={<ColumnWidthOutlined />}
          onClick={snap}
          disabled={state !== "ready" || !current}
          data-testid="waveform-snap"
        >
          {t("courses:waveform.snap")}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" id="waveform-keys" className="waveform-editor__keys">
        {t("courses:waveform.keys")}
      </Typography.Paragraph>
      <div aria-live="polite" className="waveform-editor__status" data-testid="waveform-status">
        {current &&
          t("courses:waveform.selected", {
            n: props.selected + 1,
            start: current.start.toFixed(2),
            end: current.end.toFixed(2),
          })}
        {notice && <Typography.Text type="warning"> {notice}</Typography.Text>}
      </div>
    </div>
  );
}
