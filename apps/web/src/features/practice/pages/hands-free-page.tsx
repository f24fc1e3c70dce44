import { HANDS_FREE_KINDS, type HandsFreeItem, type HandsFreeKind } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Checkbox, Empty, Progress, Skeleton, Space, Tag, Typography } from "antd";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { localMidnight } from "@/features/review/api/review-queries";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { handsFreeKeys, handsFreePlanQuery } from "../api/hands-free-api";
import { HandsFreeDownload } from "../components/hands-free-download";
import { HandsFreeEnd } from "../components/hands-free-end";
import { useHandsFreeGrades } from "../hooks/use-hands-free-grades";
import { useHandsFreeKinds } from "../hooks/use-hands-free-kinds";
import { useHandsFreeRunner, voiceFor } from "../hooks/use-hands-free-runner";
import "../practice.css";

const NO_ITEMS: HandsFreeItem[] = [];

/**
 * Sets Media Session action handlers (those the browser supports); returns what unsets them. The
 * lesson player's hook does the same for its own handlers: importing it here would split it out
 * of the lesson page's chunk (one file more there).
 */
function setMediaActions(handlers: [MediaSessionAction, MediaSessionActionHandler][]) {
  const set = (action: MediaSessionAction, handler: MediaSessionActionHandler | null) => {
    try {
      navigator.mediaSession.setActionHandler(action, handler);
    } catch {
      // action not supported by this browser
    }
  };
  for (const [action, handler] of handlers) set(action, handler);
  return () => {
    for (const [action] of handlers) set(action, null);
  };
}

/** Lock screen and headphone buttons: play, pause, next line, the line again. */
function useSessionButtons(
  active: boolean,
  title: string,
  artist: string,
  playing: boolean,
  actions: { play: () => void; pause: () => void; next: () => void; previous: () => void },
) {
  const { play, pause, next, previous } = actions;
  useEffect(() => {
    if (!active || !("mediaSession" in navigator)) return;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({ title, artist, album: "Parlons" });
    session.playbackState = playing ? "playing" : "paused";
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", play],
      ["pause", pause],
      ["nexttrack", next],
      ["previoustrack", previous],
    ];
    return setMediaActions(handlers);
  }, [active, title, artist, playing, play, pause, next, previous]);
}

/**
 * `/practice/hands-free`: the day's lines as a session that plays by itself (Pimsleur's way): an
 * echo plays the line, a pause to repeat it, the line again; a recall says (or shows) the
 * translation, a pause to say the line, the line. One tap marks the current line missed; at the
 * end the grades go to the review deck in one request (grade ids made once: a retry is a replay).
 */
export function HandsFreePage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  usePageTitle(t("practice:handsFree.title"));
  const { kinds, setKinds } = useHandsFreeKinds();
  const plan = useQuery(handsFreePlanQuery(kinds, lang));
  const items = plan.data?.items ?? NO_ITEMS;
  const runner = useHandsFreeRunner(items);
  const { state } = runner;
  const [started, setStarted] = useState(false);
  const [missed, setMissed] = useState<Set<string>>(() => new Set());
  const [sending, setSending] = useState(false);
  const grades = useHandsFreeGrades(useSession().user?.id ?? "");
  const gradeIds = useMemo(() => new Map(items.map((i) => [i.card.id, crypto.randomUUID()])), [items]);
  useEffect(() => () => queryClient.removeQueries({ queryKey: handsFreeKeys.all }), [queryClient]);

  const item = items[state.index];
  const title = item ? t("practice:handsFree.position", { n: state.index + 1, total: items.length }) : "";
  useSessionButtons(started && !state.finished, title, t("practice:handsFree.title"), state.playing, runner);

  const toggle = useCallback(
    (cardId: string) =>
      setMissed((old) => {
        const next = new Set(old);
        if (!next.delete(cardId)) next.add(cardId);
        return next;
      }),
    [],
  );
  const { send: sendGrades, reset: resetGrades } = grades;
  const send = useCallback(async () => {
    setSending(true);
    // kept on the device, then sent (now, or when the connection returns): each grade id counts once
    await sendGrades({
      grades: items.map((i) => ({
        grade_id: gradeIds.get(i.card.id) as string,
        card_id: i.card.id,
        rating: missed.has(i.card.id) ? 1 : 3,
      })),
      answered_at: new Date().toISOString(),
      day_start: localMidnight(),
    });
    setSending(false);
  }, [items, gradeIds, missed, sendGrades]);
  const again = useCallback(() => {
    runner.restart();
    setStarted(false);
    setMissed(new Set());
    resetGrades();
    void queryClient.resetQueries({ queryKey: handsFreeKeys.all });
  }, [runner, queryClient, resetGrades]);

  let body: React.ReactNode;
  if (plan.isError) body = <LoadError query={plan} />;
  else if (plan.isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (items.length === 0)
    body = (
      <Empty description={t("practice:handsFree.nothing")} data-testid="hands-free-empty">
        <ButtonLink to={to(pagePath("practice"))}>{t("practice:page.title")}</ButtonLink>
      </Empty>
    );
  else if (state.finished)
    body = (
      <HandsFreeEnd
        items={items}
        missed={missed}
        onToggle={toggle}
        onSend={() => void send()}
        sending={sending}
        state={grades.state}
        onAgain={again}
      />
    );
  else if (!started)
    body = (
      <Card data-testid="hands-free-ready">
        <Typography.Paragraph>
          {t("practice:handsFree.ready", {
            count: items.length,
            minutes: Math.max(1, Math.round((plan.data?.seconds ?? 0) / 60)),
          })}
        </Typography.Paragraph>
        <Button
          type="primary"
          size="large"
          data-testid="hands-free-start"
          onClick={() => {
            setStarted(true);
            runner.play();
          }}
        >
          {t("practice:handsFree.start")}
        </Button>
        <HandsFreeDownload kinds={kinds} />
      </Card>
    );
  else if (item) {
    const spoken = item.prompt !== null && voiceFor(item.prompt.language) !== null;
    const lastStep = state.step >= item.steps.length + (state.index > 0 ? 1 : 0) - 1;
    body = (
      <Card
        className="practice-card"
        data-testid="hands-free-current"
        data-index={state.index}
        data-kind={item.kind}
        title={<Tag>{t(`practice:handsFree.kinds.${item.kind}`)}</Tag>}
        extra={<span aria-live="polite">{title}</span>}
      >
        <Progress
          percent={Math.round((state.index / items.length) * 100)}
          showInfo={false}
          size="small"
          aria-label={t("practice:page.progress")}
        />
        {item.kind === "recall" && item.prompt ? (
          <div className="hands-free-prompt">
            <Typography.Paragraph type="secondary">{t("practice:handsFree.recallHint")}</Typography.Paragraph>
            <Typography.Paragraph
              className="hands-free-prompt__text"
              lang={item.prompt.language}
              data-testid="hands-free-prompt"
              data-spoken={spoken}
            >
              {item.prompt.text}
            </Typography.Paragraph>
          </div>
        ) : (
          <Typography.Paragraph type="secondary">{t("practice:handsFree.echoHint")}</Typography.Paragraph>
        )}
        {(item.kind === "echo" || lastStep) && (
          <Typography.Paragraph className="hands-free-line" lang={item.language}>
            {item.cue.text}
          </Typography.Paragraph>
        )}
        <Space wrap>
          {state.playing ? (
            <Button onClick={runner.pause} data-testid="hands-free-pause">
              {t("practice:handsFree.pause")}
            </Button>
          ) : (
            <Button type="primary" onClick={runner.play} data-testid="hands-free-play">
              {t("practice:handsFree.resume")}
            </Button>
          )}
          <Button onClick={runner.next} data-testid="hands-free-next">
            {t("practice:handsFree.next")}
          </Button>
          <Button
            danger={missed.has(item.card.id)}
            aria-pressed={missed.has(item.card.id)}
            onClick={() => toggle(item.card.id)}
            data-testid="hands-free-missed"
          >
            {t("practice:handsFree.missed")}
          </Button>
        </Space>
      </Card>
    );
  }

  return (
    <div className="practice-page">
      <Typography.Title level={2}>{t("practice:handsFree.title")}</Typography.Title>
      <Typography.Paragraph>{t("practice:handsFree.intro")}</Typography.Paragraph>
      {!started && (
        <fieldset className="practice-fieldset practice-settings">
          <legend className="practice-fieldset__legend">{t("practice:handsFree.kindsLabel")}</legend>
          <Checkbox.Group
            value={kinds}
            onChange={(value) => setKinds(value as HandsFreeKind[])}
            options={HANDS_FREE_KINDS.map((kind) => ({
              value: kind,
              label: t(`practice:handsFree.kinds.${kind}`),
            }))}
          />
        </fieldset>
      )}
      {body}
      {/* biome-ignore lint/a11y/useMediaCaption: the lines are shown as text on the page */}
      <audio ref={runner.lineRef} preload="auto" data-testid="hands-free-audio" />
      {/* biome-ignore lint/a11y/useMediaCaption: silence */}
      <audio ref={runner.silenceRef} data-testid="hands-free-silence" />
    </div>
  );
}
