import { DeleteOutlined } from "@ant-design/icons";
import { pickText } from "@parlons/contract";
import { App, Button, Card, Empty, List, Skeleton, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { formatBytes } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import type { DownloadRecord } from "../api/offline/db";
import { offlineSupported, removeDownloads, storageEstimate, useDownloads } from "../api/offline/downloads";

/** `/downloads`: the lessons kept on this device, by course, the storage used, and Delete. */
export function DownloadsPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const { modal } = App.useApp();
  const records = useDownloads();
  const [storage, setStorage] = useState<{ usage: number; quota: number } | null>(null);
  usePageTitle(t("courses:offline.page.title"));

  useEffect(() => {
    if (records === null) return;
    void storageEstimate().then(setStorage, () => setStorage(null));
  }, [records]);

  const courses = new Map<string, DownloadRecord[]>();
  for (const r of records ?? []) courses.set(r.courseId, [...(courses.get(r.courseId) ?? []), r]);
  const pick = (text: { fr: string; en: string }) => pickText(text, lang);

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title">
          {t("courses:offline.page.title")}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t("courses:offline.page.intro")}</Typography.Paragraph>
        {storage && (
          <Typography.Paragraph data-testid="storage-used">
            {t("courses:offline.page.storage", {
              usage: formatBytes(storage.usage, lang),
              quota: formatBytes(storage.quota, lang),
            })}
          </Typography.Paragraph>
        )}
      </div>
      {!offlineSupported() ? (
        <Empty description={t("courses:offline.page.unsupported")} />
      ) : records === null ? (
        <Skeleton active />
      ) : records.length === 0 ? (
        <Empty description={t("courses:offline.page.empty")} data-testid="downloads-empty" />
      ) : (
        <>
          {[...courses.entries()].map(([courseId, lessons]) => (
            <Card
              key={courseId}
              size="small"
              title={pick(lessons[0]?.courseTitle ?? { fr: "", en: "" })}
              data-testid="download-course-card"
              extra={
                <Button
                  size="small"
                  icon={<DeleteOutlined />}
                  onClick={() => void removeDownloads(lessons.map((l) => l.lessonId))}
                >
                  {t("courses:offline.page.removeCourse")}
                </Button>
              }
            >
              <List
                dataSource={lessons}
                renderItem={(r) => (
                  <List.Item
                    actions={[
                      <ButtonLink
                        key="open"
                        size="small"
                        to={to(pagePath("lesson", { id: r.courseId, lessonId: r.lessonId }))}
                        aria-label={`${t("courses:offline.page.open")} ${pick(r.title)}`}
                      >
                        {t("courses:offline.page.open")}
                      </ButtonLink>,
                      <Button
                        key="delete"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={`${t("courses:offline.remove")} ${pick(r.title)}`}
                        onClick={() => void removeDownloads([r.lessonId])}
                        data-testid="download-delete"
                      />,
                    ]}
                  >
                    <List.Item.Meta title={pick(r.title)} description={formatBytes(r.bytes, lang)} />
                  </List.Item>
                )}
              />
            </Card>
          ))}
          <Button
            danger
            onClick={() =>
              modal.confirm({
                title: t("courses:offline.page.removeAllConfirm"),
                okButtonProps: { danger: true },
                onOk: () => removeDownloads((records ?? []).map((r) => r.lessonId)),
              })
            }
          >
            {t("courses:offline.page.removeAll")}
          </Button>
        </>
      )}
    </Space>
  );
}
