import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  HolderOutlined,
  InboxOutlined,
  PlusOutlined,
  ReadOutlined,
} from "@ant-design/icons";
import type { LessonItem } from "@parlons/contract";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Drawer, List, Space, Switch, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { courseKeys, lessonTitle } from "@/features/courses/api/course-queries";
import { GlossaryEditor } from "@/features/glossary/components/glossary-editor";
import { errorText } from "@/lib/api-error";
import { formatDuration } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { deleteLesson, updateLessonColumn } from "../api/lessons-api";
import { moveItem, positionChanges } from "../lib/reorder";
import { CourseDrop } from "./course-drop";
import { LessonForm } from "./lesson-form";
import { TranslationsTools } from "./translations-tools";

/** Staff list of a course's lessons: drag (or ↑/↓) to reorder, free/active toggles, edit, delete. */
export function StaffLessons({ courseId, lessons }: { courseId: string; lessons: LessonItem[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<LessonItem | "new" | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [dropping, setDropping] = useState(false);
  const [glossary, setGlossary] = useState(false);
  const key = courseKeys.lessons(courseId);
  // the lesson being edited as the list has it now (its lines change when an alignment writes them)
  const edited =
    editing === "new" || editing === null ? editing : (lessons.find((l) => l.id === editing.id) ?? editing);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: courseKeys.all });
  };

  async function reorder(from: number, to: number) {
    const ordered = moveItem(lessons, from, to);
    const changes = positionChanges(ordered);
    if (changes.length === 0) return;
    queryClient.setQueryData(key, (old: { lessons: LessonItem[]; access: "all" | "free" } | undefined) =>
      old ? { ...old, lessons: ordered.map((l, i) => ({ ...l, position: i })) } : old,
    );
    setBusy(true);
    try {
      for (const c of changes) {
        await updateLessonColumn(courseId, c.id, { column: "position", value: c.position });
      }
      message.success(t("courses:staffLessons.reordered"));
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
      refresh();
    }
  }

  async function setFlag(lesson: LessonItem, column: "free" | "active", value: boolean) {
    try {
      await updateLessonColumn(courseId, lesson.id, { column, value });
      refresh();
    } catch (error) {
      message.error(errorText(error));
    }
  }

  const confirmDelete = (lesson: LessonItem) =>
    modal.confirm({
      title: t("courses:staffLessons.deleteTitle"),
      content: t("courses:staffLessons.deleteConfirm", { title: lessonTitle(lesson, lang) }),
      okText: t("common:actions.ok"),
      cancelText: t("common:actions.cancel"),
      okButtonProps: { danger: true },
      onOk: () =>
        deleteLesson(courseId, lesson.id)
          .then(() => {
            message.success(t("courses:staffLessons.deleted"));
            refresh();
          })
          .catch((error) => message.error(errorText(error))),
    });

  return (
    <>
      <Space wrap className="staff-lessons__bar">
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing("new")}
          data-testid="lesson-add"
        >
          {t("courses:staffLessons.add")}
        </Button>
        <Button icon={<InboxOutlined />} onClick={() => setDropping(true)} data-testid="course-drop-open">
          {t("courses:drop.open")}
        </Button>
        <TranslationsTools courseId={courseId} />
        <Button icon={<ReadOutlined />} onClick={() => setGlossary(true)} data-testid="glossary-open">
          {t("courses:glossary.open")}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary">{t("courses:staffLessons.dragHint")}</Typography.Paragraph>
      <List
        className="staff-lessons"
        dataSource={lessons}
        locale={{ emptyText: t("courses:lessons.empty") }}
        renderItem={(lesson, index) => (
          <List.Item
            key={lesson.id}
            data-testid="lesson-row"
            data-locked={lesson.locked}
            draggable={!busy}
            className={dragging === index ? "staff-lesson is-dragging" : "staff-lesson"}
            onDragStart={(e) => {
              setDragging(index);
              e.dataTransfer.effectAllowed = "move";
            }}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              if (dragging !== null) void reorder(dragging, index);
              setDragging(null);
            }}
            onDragEnd={() => setDragging(null)}
            actions={[
              <Space key="order" size={4}>
                <Button
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={index === 0 || busy}
                  onClick={() => void reorder(index, index - 1)}
                  aria-label={t("courses:staffLessons.moveUp", { title: lessonTitle(lesson, lang) })}
                />
                <Button
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={index === lessons.length - 1 || busy}
                  onClick={() => void reorder(index, index + 1)}
                  aria-label={t("courses:staffLessons.moveDown", { title: lessonTitle(lesson, lang) })}
                />
              </Space>,
              <span key="free" className="inline-switch">
                <Switch
                  size="small"
                  checked={lesson.free}
                  aria-label={t("courses:staffLessons.freeFor", { title: lessonTitle(lesson, lang) })}
                  onChange={(v) => void setFlag(lesson, "free", v)}
                />{" "}
                {t("courses:lessons.free")}
              </span>,
              <span key="active" className="inline-switch">
                <Switch
                  size="small"
                  checked={lesson.active}
                  aria-label={t("courses:staffLessons.activeFor", { title: lessonTitle(lesson, lang) })}
                  onChange={(v) => void setFlag(lesson, "active", v)}
                  data-testid="lesson-publish"
                />{" "}
                {t("courses:lessonForm.published")}
              </span>,
              <Button
                key="edit"
                size="small"
                icon={<EditOutlined />}
                onClick={() => setEditing(lesson)}
                aria-label={t("courses:staffLessons.edit", { title: lessonTitle(lesson, lang) })}
              />,
              <Button
                key="delete"
                size="small"
                danger
                icon={<DeleteOutlined />}
                onClick={() => confirmDelete(lesson)}
                aria-label={t("courses:staffLessons.delete", { title: lessonTitle(lesson, lang) })}
              />,
            ]}
          >
            <span className="staff-lesson__handle" aria-hidden="true">
              <HolderOutlined />
            </span>
            <span className="staff-lesson__title">
              {index + 1}. {lessonTitle(lesson, lang)}
            </span>
            <span className="staff-lesson__meta">
              {!lesson.active && (
                <Tag color="orange" data-testid="lesson-draft">
                  {t("courses:draft")}
                </Tag>
              )}
              {lesson.duration !== null ? (
                <Typography.Text type="secondary">{formatDuration(lesson.duration, lang)}</Typography.Text>
              ) : (
                <Tag color="red">{t("courses:staffLessons.noAudio")}</Tag>
              )}
            </span>
          </List.Item>
        )}
      />
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        size={720}
        destroyOnHidden
        title={editing === "new" ? t("courses:lessonForm.createTitle") : t("courses:lessonForm.editTitle")}
        closable={{ "aria-label": t("common:actions.close") }}
      >
        {edited !== null && (
          <LessonForm
            courseId={courseId}
            lesson={edited === "new" ? undefined : edited}
            key={edited === "new" ? "new" : edited.id}
            onSaved={(saved) => setEditing(editing === "new" ? saved : null)}
          />
        )}
      </Drawer>
      <Drawer
        open={dropping}
        onClose={() => setDropping(false)}
        size={640}
        destroyOnHidden
        title={t("courses:drop.title")}
        closable={{ "aria-label": t("common:actions.close") }}
      >
        <CourseDrop courseId={courseId} />
      </Drawer>
      <Drawer
        open={glossary}
        onClose={() => setGlossary(false)}
        size={760}
        destroyOnHidden
        title={t("courses:glossary.title")}
        closable={{ "aria-label": t("common:actions.close") }}
      >
        <GlossaryEditor courseId={courseId} />
      </Drawer>
    </>
  );
}
