import type { Lang, LessonItem } from "@parlons/contract";
import { Typography } from "antd";
import { lessonText } from "../api/lessons-api";

/** The lesson's text in the reader's language, when it has one. */
export function LessonBodyText({ lesson, lang }: { lesson: LessonItem; lang: Lang }) {
  const text = lessonText(lesson, lang);
  if (!text) return null;
  return <Typography.Paragraph className="lesson-page__text">{text}</Typography.Paragraph>;
}
