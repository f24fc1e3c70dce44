import { DeleteOutlined, SoundOutlined } from "@ant-design/icons";
import { type HabitSummary, pickField, type ReviewItem, type ReviewRating } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Empty,
  Popconfirm,
  Progress,
  Result,
  Skeleton,
  Space,
  Tag,
  Typography,
} from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { useStudySessions } from "@/features/habit/api/habit-api";
import { pauseNowPlaying } from "@/features/player/lib/now-playing";
import { errorText } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { useOutbox } from "@/lib/use-outbox";
import { usePageTitle } from "@/lib/use-page-title";
import { useSegmentPlayer } from "@/lib/use-segment-player";
import { dueReviewsQuery, removeReviewCard, sendQueuedGrade } from "../api/review-api";
import { reviewKeys } from "../api/review-queries";
import { ReviewSummary, type SessionTally } from "../components/review-summary";
import { gradesOutbox } from "../lib/outbox";
import "../review.css";
import { formatInterval } from "../lib/interval";

const RATINGS: { value: ReviewRating; key: "again" | "hard" | "good" | "easy" }[] = [
  { value: 1, key: "again" },
  { value: 2, key: "hard" },
  { value: 3, key: "good" },
  { value: 4, key: "easy" },
];

/**
 * `/review`: the day's review session. Each card plays its line's segment of the lesson audio;
 * the learner recalls the meaning, reveals it (Space) and grades it (1 Again, 2 Hard, 3 Good,
 * 4 Easy); R plays the line again. Grades go through an outbox, so a session made offline is
 * sent when the connection returns, each grade once.
 */
export function ReviewPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  usePageTitle(t("review:page.title"));
  const due = useQuery(dueReviewsQuery);
  const [queue, setQueue] = useState<ReviewItem[] | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [reviewed, setReviewed] = useState(0);
  const [tally, setTally] = useState<SessionTally>({ items: 0, correct: 0 });
  const [offline, setOffline] = useState(false);
  const [habit, setHabit] = useState<HabitSummary | null>(null);
  const sessionId = useRef(crypto.randomUUID());
  const recorded = useRef(false);
  // a signed audio URL that expired during a long session: the due list is read again for fresh ones
  const renewAudio = useCallback(() => {
    void queryClient
      .fetchQuery({ ...dueReviewsQuery, staleTime: 0 })
      .then((fresh) => {
        const urls = new Map(fresh.items.map((i) => [i.lesson.id, i.lesson.audio_url]));
        setQueue(
          (old) =>
            old?.map((i) => {
              const url = urls.get(i.lesson.id);
              return url && url !== i.lesson.audio_url
                ? { ...i, lesson: { ...i.lesson, audio_url: url } }
                : i;
            }) ?? old,
        );
      })
      .catch(() => undefined); // offline: the line simply does not play
  }, [queryClient]);
  const player = useSegmentPlayer(renewAudio);
  const gradeButtons = useRef<HTMLFieldSetElement>(null);
  const { message } = App.useApp();
  const [removing, setRemoving] = useState(false);

  const refreshCounts = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: reviewKeys.stats }),
    [queryClient],
  );
  // the page is behind sign-in: the user is known here
  const userId = useSession().user?.id ?? "";
  // grades go through the outbox: a session made offline is sent when the connection returns
  const { queue: queueGrade, flush } = useOutbox(gradesOutbox, userId, sendQueuedGrade, refreshCounts);
  const sessions = useStudySessions(userId);

  // the session's queue is taken once from the due list
  useEffect(() => {
    if (due.data && queue === null) setQueue(due.data.items);
  }, [due.data, queue]);
  // leaving the page: the next visit reads a fresh due list
  useEffect(() => () => queryClient.removeQueries({ queryKey: reviewKeys.due }), [queryClient]);

  const current = queue?.[0];
  const segment = player.play;
  // a card's line plays: the lesson still playing in the mini-player stops (one sound at a time)
  const play = useCallback(
    (src: string, start: number, end: number) => {
      pauseNowPlaying();
      segment(src, start, end);
    },
    [segment],
  );
  useEffect(() => {
    if (current?.lesson.audio_url) play(current.lesson.audio_url, current.cue.start, current.cue.end);
  }, [current, play]);

  const reveal = useCallback(() => {
    setRevealed(true);
    requestAnimationFrame(() =>
      gradeButtons.current?.querySelector<HTMLButtonElement>("[data-testid='grade-good']")?.focus(),
    );
  }, []);

  const grade = useCallback(
    (rating: ReviewRating) => {
      if (!current) return;
      void queueGrade({
        review_id: crypto.randomUUID(),
        card_id: current.card.id,
        rating,
        reviewed_at: new Date().toISOString(),
      }).then(() => setOffline(!navigator.onLine));
      setReviewed((n) => n + 1);
      setTally((old) => ({ items: old.items + 1, correct: old.correct + (rating >= 3 ? 1 : 0) }));
      setRevealed(false);
      // "Again" comes back at the end of this session (FSRS's first step is minutes away)
      setQueue((old) => (old ? [...old.slice(1), ...(rating === 1 ? [old[0] as ReviewItem] : [])] : old));
    },
    [current, queueGrade],
  );

  // the session ends (the queue empty after grades): recorded once, for the streak and study day
  const { record } = sessions;
  useEffect(() => {
    if (queue === null || queue.length > 0 || tally.items === 0 || recorded.current) return;
    recorded.current = true;
    setOffline(!navigator.onLine);
    void flush()
      .then(() =>
        record({
          id: sessionId.current,
          kind: "review",
          items: tally.items,
          correct: tally.correct,
          finished_at: new Date().toISOString(),
        }),
      )
      .then((summary) => {
        setHabit(summary);
        if (!summary) setOffline(true);
      });
  }, [queue, tally, record, flush]);

  const remove = useCallback(async () => {
    if (!current) return;
    setRemoving(true);
    try {
      await removeReviewCard(current.card.id);
      message.success(t("review:remove.done"));
      setRevealed(false);
      setQueue((old) => old?.filter((i) => i.card.id !== current.card.id) ?? old);
      refreshCounts();
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setRemoving(false);
    }
  }, [current, message, t, refreshCounts]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || !current) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable='true']")) return;
      if (event.key === " " || event.code === "Space") {
        event.preventDefault();
        if (!revealed) reveal();
        return;
      }
      if (event.key === "r" || event.key === "R") {
        event.preventDefault();
        if (current.lesson.audio_url) play(current.lesson.audio_url, current.cue.start, current.cue.end);
        return;
      }
      const rating = RATINGS.find((r) => String(r.value) === event.key);
      if (rating && revealed) {
        event.preventDefault();
        grade(rating.value);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [current, revealed, reveal, grade, play]);

  if (due.isError && queue === null) {
    return <LoadError query={due} />;
  }
  if (due.isPending || queue === null) return <Skeleton active paragraph={{ rows: 6 }} />;

  const counts = due.data?.counts ?? { new: 0, due: 0 };
  const total = due.data?.items.length ?? 0;
  if (!current) {
    if (tally.items > 0) return <ReviewSummary tally={tally} habit={habit} offline={offline} />;
    return (
      <Result
        status="info"
        title={t("review:page.nothing")}
        subTitle={offline ? t("review:page.offline") : t("review:page.comeBack")}
        extra={<ButtonLink to={to(pagePath("dashboard"))}>{t("review:page.back")}</ButtonLink>}
        data-testid="review-finished"
      />
    );
  }

  const translation = pickField(current.cue, "translation", lang);
  const lessonTitle = pickField(current.lesson, "title", lang);

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }} className="review-page">
      <div>
        <Typography.Title level={1} className="page-title">
          {t("review:page.title")}
        </Typography.Title>
        <Space wrap>
          <Tag color="blue" data-testid="review-due">
            {t("review:counts.dueN", { count: counts.due })}
          </Tag>
          <Tag color="green" data-testid="review-new">
            {t("review:counts.newN", { count: counts.new })}
          </Tag>
          <Typography.Text type="secondary" data-testid="review-left">
            {t("review:page.left", { count: queue.length })}
          </Typography.Text>
        </Space>
        <Progress
          percent={total ? Math.round((Math.min(reviewed, total) / total) * 100) : 0}
          showInfo={false}
        />
      </div>
      <Card className="review-card" data-testid="review-current" data-card={current.card.id}>
        <Typography.Text type="secondary">{lessonTitle}</Typography.Text>
        {current.word && (
          <Typography.Title level={2} className="review-card__word" data-testid="review-word">
            <Tag color="gold">{t("review:words.review.tag")}</Tag> {current.word.word}
          </Typography.Title>
        )}
        <div className="review-card__prompt">
          {current.lesson.audio_url ? (
            <Button
              size="large"
              icon={<SoundOutlined />}
              onClick={() => play(current.lesson.audio_url as string, current.cue.start, current.cue.end)}
              data-testid="review-play"
              aria-keyshortcuts="R"
            >
              {player.playing ? t("review:page.playing") : t("review:page.play")}
            </Button>
          ) : (
            <Empty description={t("review:page.noAudio")} />
          )}
        </div>
        {revealed ? (
          <div className="review-card__answer" data-testid="review-answer" aria-live="polite">
            {current.word && (
              <Typography.Paragraph
                className="review-card__meaning"
                lang={lang}
                data-testid="review-word-meaning"
              >
                <strong>{t("review:words.review.meaning")}</strong> {pickField(current.word, "meaning", lang)}
              </Typography.Paragraph>
            )}
            <Typography.Title level={3} className="review-card__text">
              {current.cue.text}
            </Typography.Title>
            {translation && (
              <Typography.Paragraph className="review-card__translation" lang={lang}>
                {translation}
              </Typography.Paragraph>
            )}
            <fieldset className="review-card__grades" ref={gradeButtons}>
              <legend className="visually-hidden">{t("review:page.gradeLabel")}</legend>
              {RATINGS.map((r) => (
                <Button
                  key={r.value}
                  onClick={() => grade(r.value)}
                  aria-keyshortcuts={String(r.value)}
                  data-testid={`grade-${r.key}`}
                  type={r.value === 3 ? "primary" : "default"}
                  danger={r.value === 1}
                >
                  <span>
                    <kbd>{r.value}</kbd> {t(`review:grades.${r.key}`)}
                    <span className="review-card__interval" data-testid={`interval-${r.key}`}>
                      {formatInterval(current.next_intervals[r.value - 1] ?? 0, lang)}
                    </span>
                  </span>
                </Button>
              ))}
            </fieldset>
          </div>
        ) : (
          <div className="review-card__question">
            <Typography.Paragraph>{t("review:page.recall")}</Typography.Paragraph>
            <Button type="primary" onClick={reveal} aria-keyshortcuts="Space" data-testid="review-reveal">
              {t("review:page.reveal")}
            </Button>
          </div>
        )}
      </Card>
      <Popconfirm
        title={t("review:remove.confirm")}
        okText={t("review:remove.ok")}
        cancelText={t("common:actions.cancel")}
        okButtonProps={{ danger: true }}
        onConfirm={() => remove()}
      >
        <Button
          type="link"
          danger
          icon={<DeleteOutlined />}
          loading={removing}
          className="review-page__remove"
          data-testid="review-remove"
        >
          {t("review:remove.button")}
        </Button>
      </Popconfirm>
      <Typography.Text type="secondary" className="review-page__keys">
        {t("review:page.keys")}
      </Typography.Text>
      <audio {...player.audioProps} />
    </Space>
  );
}
