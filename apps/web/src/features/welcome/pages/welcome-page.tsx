import {
  type CourseItem,
  type HabitSettingsBody,
  LEARNER_LEVELS,
  type LearnerLevel,
  WELCOME_GOALS,
} from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Empty,
  Flex,
  Radio,
  Select,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
} from "antd";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { courseListQuery, courseTitle, lessonsQuery } from "@/features/courses/api/course-queries";
import { browserTimeZone, useSaveHabitSettings } from "@/features/habit/api/habit-api";
import { pushSupported, startPush } from "@/features/push/api/push-api";
import { errorText } from "@/lib/api-error";
import { languageName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { catalogueLanguages, recommendCourse } from "../lib/recommend";
import "../welcome.css";

const STEPS = ["language", "level", "goal", "reminder", "course"] as const;
type Step = (typeof STEPS)[number];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/**
 * `/welcome`: a new learner's first minutes. The language they learn (from the catalogue's
 * languages), their level, a daily goal and whether and when to be reminded; then the course
 * that fits, and its first lesson. The choices are kept with the study settings.
 */
export function WelcomePage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { message } = App.useApp();
  usePageTitle(t("habit:welcome.title"));
  const catalogue = useQuery(courseListQuery("active", { pageSize: 100 }));
  const [step, setStep] = useState<Step>("language");
  const [language, setLanguage] = useState<string | null>(null);
  const [level, setLevel] = useState<LearnerLevel | null>(null);
  const [goal, setGoal] = useState<number>(10);
  const [remind, setRemind] = useState(true);
  const [hour, setHour] = useState(19);
  // offered where the browser can show notifications (known after the first render)
  const [canPush, setCanPush] = useState(false);
  const [push, setPush] = useState(false);
  useEffect(() => setCanPush(pushSupported()), []);
  const save = useSaveHabitSettings();
  const heading = useRef<HTMLHeadingElement>(null);
  const hourId = useId();
  const index = STEPS.indexOf(step);

  // each step's question takes the focus, so that a screen reader and the keyboard follow
  useEffect(() => {
    if (index > 0) heading.current?.focus();
  }, [index]);

  if (catalogue.isError) return <LoadError query={catalogue} />;
  if (!catalogue.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const courses = catalogue.data.courses;
  const languages = catalogueLanguages(courses);
  const course = language && level ? recommendCourse(courses, language, level) : null;

  const finish = () => {
    // the permission is asked now, while the tap counts; the reminders start once it is given
    if (remind && push)
      startPush()
        .then((state) => state === "denied" && message.warning(t("habit:push.denied")))
        .catch((error) => message.error(errorText(error)));
    save.mutate(
      {
        goal_minutes: goal,
        reminder_hour: remind ? hour : null,
        learning_language: language as HabitSettingsBody["learning_language"],
        level,
        ...(browserTimeZone() ? { time_zone: browserTimeZone() as string } : {}),
      },
      { onSuccess: () => setStep("course"), onError: (error) => message.error(errorText(error)) },
    );
  };

  const next = (enabled: boolean, onClick = () => setStep(STEPS[index + 1] as Step)) => (
    <Flex gap={8} wrap justify="space-between" className="welcome__actions">
      {index > 0 ? (
        <Button onClick={() => setStep(STEPS[index - 1] as Step)} data-testid="welcome-back">
          {t("habit:welcome.back")}
        </Button>
      ) : (
        <span />
      )}
      <Button
        type="primary"
        disabled={!enabled}
        loading={save.isPending}
        onClick={onClick}
        data-testid="welcome-next"
      >
        {t("habit:welcome.next")}
      </Button>
    </Flex>
  );

  const question = (text: string, body: ReactNode) => (
    <Card className="welcome__card">
      <Typography.Title level={2} className="welcome__question" tabIndex={-1} ref={heading}>
        {text}
      </Typography.Title>
      {body}
    </Card>
  );

  return (
    <Space orientation="vertical" size="large" className="welcome" data-testid="welcome-page">
      <div>
        <Typography.Title level={1} className="page-title" data-testid="welcome-title">
          {t("habit:welcome.title")}
        </Typography.Title>
        <Typography.Text type="secondary" data-testid="welcome-step">
          {t("habit:welcome.step", { n: index + 1, total: STEPS.length })}
        </Typography.Text>
      </div>

      {step === "language" &&
        question(
          t("habit:welcome.language"),
          languages.length === 0 ? (
            <Empty description={t("habit:welcome.noCourses")} data-testid="welcome-empty">
              <ButtonLink to={to(pagePath("dashboard"))}>{t("habit:welcome.skip")}</ButtonLink>
            </Empty>
          ) : (
            <>
              <Radio.Group
                value={language}
                onChange={(e) => setLanguage(e.target.value)}
                className="welcome__choices"
                aria-label={t("habit:welcome.language")}
                data-testid="welcome-languages"
              >
                {languages.map((code) => (
                  <Radio.Button key={code} value={code}>
                    {languageName(code, lang)}
                  </Radio.Button>
                ))}
              </Radio.Group>
              {next(language !== null)}
            </>
          ),
        )}

      {step === "level" &&
        question(
          t("habit:welcome.level"),
          <>
            <Radio.Group
              value={level}
              onChange={(e) => setLevel(e.target.value)}
              className="welcome__choices"
              aria-label={t("habit:welcome.level")}
              data-testid="welcome-levels"
            >
              {LEARNER_LEVELS.map((l) => (
                <Radio.Button key={l} value={l}>
                  {l === "starting"
                    ? t("habit:welcome.starting")
                    : t("habit:welcome.levelName", { level: l })}
                </Radio.Button>
              ))}
            </Radio.Group>
            {next(level !== null)}
          </>,
        )}

      {step === "goal" &&
        question(
          t("habit:welcome.goal"),
          <>
            <Radio.Group
              value={goal}
              onChange={(e) => setGoal(e.target.value)}
              className="welcome__choices"
              aria-label={t("habit:welcome.goal")}
              data-testid="welcome-goals"
            >
              {WELCOME_GOALS.map((minutes) => (
                <Radio.Button key={minutes} value={minutes}>
                  {t("habit:welcome.minutes", { count: minutes })}
                </Radio.Button>
              ))}
            </Radio.Group>
            <Typography.Paragraph type="secondary" className="welcome__hint">
              {t("habit:welcome.goalHint")}
            </Typography.Paragraph>
            {next(true)}
          </>,
        )}

      {step === "reminder" &&
        question(
          t("habit:welcome.reminder"),
          <>
            <Flex gap={12} align="center" wrap>
              <Switch
                checked={remind}
                onChange={setRemind}
                aria-label={t("habit:welcome.remindMe")}
                data-testid="welcome-remind"
              />
              <Typography.Text>{t("habit:welcome.remindMe")}</Typography.Text>
            </Flex>
            {remind && (
              <Flex gap={8} align="center" wrap className="welcome__hour">
                <label htmlFor={hourId}>{t("habit:welcome.hour")}</label>
                <Select
                  id={hourId}
                  value={hour}
                  onChange={setHour}
                  style={{ width: 110 }}
                  options={HOURS.map((h) => ({ value: h, label: t("habit:prefs.hourOption", { hour: h }) }))}
                  data-testid="welcome-hour"
                />
              </Flex>
            )}
            {remind && canPush && (
              <Flex gap={12} align="center" wrap className="welcome__hour">
                <Switch
                  checked={push}
                  onChange={setPush}
                  aria-label={t("habit:push.welcome")}
                  data-testid="welcome-push"
                />
                <Typography.Text>{t("habit:push.welcome")}</Typography.Text>
              </Flex>
            )}
            <Typography.Paragraph type="secondary" className="welcome__hint">
              {remind ? t("habit:welcome.reminderHint") : t("habit:welcome.noReminderHint")}
            </Typography.Paragraph>
            {next(true, finish)}
          </>,
        )}

      {step === "course" &&
        question(
          course ? t("habit:welcome.recommended") : t("habit:welcome.noMatch"),
          course ? (
            <Recommendation course={course} />
          ) : (
            <Empty description={t("habit:welcome.noMatchText")} data-testid="welcome-no-match">
              <ButtonLink to={to(pagePath("courses"))} type="primary">
                {t("habit:welcome.browse")}
              </ButtonLink>
            </Empty>
          ),
        )}
    </Space>
  );
}

/** The recommended course and the button that opens its first open lesson. */
function Recommendation({ course }: { course: CourseItem }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const navigate = useNavigate();
  const lessons = useQuery(lessonsQuery(course.id));
  const first = lessons.data?.lessons.find((l) => !l.locked);
  const start = () =>
    navigate(
      to(
        first
          ? pagePath("lesson", { id: course.id, lessonId: first.id })
          : pagePath("course", { id: course.id }),
      ),
    );
  return (
    <div data-testid="welcome-course">
      <Typography.Title level={3} className="welcome__course-title">
        {courseTitle(course, lang)}
      </Typography.Title>
      <Space wrap>
        <Tag color="blue">{course.level}</Tag>
        <Tag>{t("courses:learn", { language: languageName(course.target_language, lang) })}</Tag>
        <Typography.Text type="secondary">
          {t("courses:lessonCount", { count: course.lessons_count })}
        </Typography.Text>
      </Space>
      {lessons.isError && <LoadError query={lessons} compact />}
      <Flex gap={8} wrap className="welcome__actions">
        <Button
          type="primary"
          size="large"
          onClick={start}
          loading={lessons.isPending}
          data-testid="welcome-start"
        >
          {t("habit:welcome.start")}
        </Button>
        <ButtonLink to={to(pagePath("courses"))}>{t("habit:welcome.browse")}</ButtonLink>
      </Flex>
    </div>
  );
}
