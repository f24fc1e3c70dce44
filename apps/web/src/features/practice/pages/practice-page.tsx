import {
  EXERCISE_KINDS,
  type ExerciseKind,
  gradeResult,
  type PracticeExercise,
  type PracticeGrade,
  type PracticeResultBody,
} from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card, Checkbox, Empty, Progress, Skeleton, Space, Switch, Tag, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLocalePath } from "@/lib/use-locale";
import { useOutbox } from "@/lib/use-outbox";
import { usePageTitle } from "@/lib/use-page-title";
import { useSegmentPlayer } from "@/lib/use-segment-player";
import { practiceKeys, practiceSessionQuery, sendQueuedResult } from "../api/practice-api";
import { ClozeExercise } from "../components/cloze-exercise";
import { DictationExercise } from "../components/dictation-exercise";
import { PracticeSummary } from "../components/practice-summary";
import { RecallExercise } from "../components/recall-exercise";
import { ResultPanel } from "../components/result-panel";
import { usePracticeSettings } from "../hooks/use-practice-settings";
import type { Answer } from "../lib/answer";
import { practiceOutbox } from "../lib/practice-outbox";
import "../practice.css";

const EXERCISES = { dictation: DictationExercise, cloze: ClozeExercise, recall: RecallExercise };

/**
 * `/practice`: the day's exercises from the review deck (dictation, cloze, recall), one after the
 * other. Each answer is graded at once in the browser with the contract's grading (the server
 * grades it again, as the authority, and updates the line's card); results go through an outbox,
 * so a session of downloaded lessons practised offline is sent when the connection returns.
 */
export function PracticePage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  usePageTitle(t("practice:page.title"));
  const { settings, update } = usePracticeSettings();
  const session = useQuery(practiceSessionQuery(settings.kinds));
  const [queue, setQueue] = useState<PracticeExercise[] | null>(null);
  const [done, setDone] = useState<number[]>([]);
  const [grade, setGrade] = useState<PracticeGrade | null>(null);
  const [retried, setRetried] = useState<Set<string>>(() => new Set());
  const [offline, setOffline] = useState(false);
  const player = useSegmentPlayer(undefined, "practice-audio");
  // results go through the outbox: a session of downloaded lessons practised offline is sent later
  const { queue: send } = useOutbox(practiceOutbox, useSession().user?.id ?? "", sendQueuedResult);

  useEffect(() => {
    if (session.data && queue === null) setQueue(session.data.items);
  }, [session.data, queue]);
  // leaving the page: the next visit reads a fresh session
  useEffect(() => () => queryClient.removeQueries({ queryKey: practiceKeys.all }), [queryClient]);

  const current = queue?.[0];
  const { play: playSegment } = player;
  const play = useCallback(
    (rate = 1) => {
      if (current?.lesson.audio_url)
        playSegment(current.lesson.audio_url, current.cue.start, current.cue.end, rate);
    },
    [current, playSegment],
  );
  // a dictation or a cloze starts by playing its line; a recall starts from the translation
  useEffect(() => {
    if (current && current.kind !== "recall" && current.lesson.audio_url)
      playSegment(current.lesson.audio_url, current.cue.start, current.cue.end, 1);
  }, [current, playSegment]);

  const answer = useCallback(
    (given: Answer) => {
      if (!current) return;
      const result = {
        ...given,
        result_id: crypto.randomUUID(),
        card_id: current.card.id,
        ignore_accents: settings.ignoreAccents,
        answered_at: new Date().toISOString(),
      } as PracticeResultBody;
      setGrade(gradeResult(current.cue.text, result));
      void send(result).then(() => setOffline(!navigator.onLine));
    },
    [current, settings.ignoreAccents, send],
  );

  const next = useCallback(() => {
    if (!current || !grade) return;
    setDone((old) => [...old, grade.accuracy]);
    // a line failed comes back once at the end of the session
    const again = grade.rating === 1 && !retried.has(current.card.id);
    if (again) setRetried((old) => new Set(old).add(current.card.id));
    setQueue((old) => (old ? [...old.slice(1), ...(again ? [current] : [])] : old));
    setGrade(null);
  }, [current, grade, retried]);

  const restart = useCallback(() => {
    setQueue(null);
    setDone([]);
    setRetried(new Set());
    void queryClient.resetQueries({ queryKey: practiceKeys.all });
  }, [queryClient]);

  const settingsBar = (
    <Space wrap className="practice-settings">
      <fieldset className="practice-fieldset">
        <legend className="practice-fieldset__legend">{t("practice:settings.kinds")}</legend>
        <Checkbox.Group
          value={settings.kinds}
          onChange={(kinds) => {
            update({ kinds: kinds as ExerciseKind[] });
            setQueue(null);
          }}
          options={EXERCISE_KINDS.map((kind) => ({ value: kind, label: t(`practice:kinds.${kind}`) }))}
        />
      </fieldset>
      <Space>
        <Switch
          id="practice-ignore-accents"
          checked={settings.ignoreAccents}
          onChange={(ignoreAccents) => update({ ignoreAccents })}
          data-testid="practice-ignore-accents"
        />
        <label htmlFor="practice-ignore-accents">{t("practice:settings.ignoreAccents")}</label>
      </Space>
    </Space>
  );

  let body: React.ReactNode;
  if (session.isError && queue === null) body = <LoadError query={session} />;
  else if (session.isPending || queue === null) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (!current && done.length > 0) {
    const accuracy = done.reduce((a, b) => a + b, 0) / done.length;
    body = <PracticeSummary items={done.length} accuracy={accuracy} offline={offline} onAgain={restart} />;
  } else if (!current) {
    body = (
      <Empty description={t("practice:page.nothing")} data-testid="practice-empty">
        <Typography.Paragraph type="secondary">{t("practice:page.comeBack")}</Typography.Paragraph>
        <ButtonLink to={to(pagePath("dashboard"))}>{t("practice:summary.back")}</ButtonLink>
      </Empty>
    );
  } else {
    const Exercise = EXERCISES[current.kind];
    const total = done.length + queue.length;
    body = (
      <Card
        className="practice-card"
        data-testid="practice-current"
        data-kind={current.kind}
        title={<Tag>{t(`practice:kinds.${current.kind}`)}</Tag>}
        extra={<span data-testid="practice-left">{t("practice:page.left", { count: queue.length })}</span>}
      >
        <Progress
          percent={Math.round((done.length / total) * 100)}
          showInfo={false}
          size="small"
          aria-label={t("practice:page.progress")}
        />
        {grade ? (
          <ResultPanel grade={grade} line={current.cue.text} language={current.language} onNext={next} />
        ) : (
          <Exercise key={`${current.card.id}-${done.length}`} item={current} play={play} onAnswer={answer} />
        )}
      </Card>
    );
  }

  return (
    <div className="practice-page">
      <Typography.Title level={2}>{t("practice:page.title")}</Typography.Title>
      {settingsBar}
      <ButtonLink to={to(pagePath("practiceHandsFree"))} data-testid="practice-hands-free">
        {t("practice:handsFree.open")}
      </ButtonLink>
      {offline && <Typography.Paragraph type="warning">{t("practice:page.offline")}</Typography.Paragraph>}
      {body}
      <audio {...player.audioProps} />
    </div>
  );
}
