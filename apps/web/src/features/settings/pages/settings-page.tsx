import { useQuery } from "@tanstack/react-query";
import { Button, Card, Result, Skeleton, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { formatDateTime } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { editableSettingsQuery } from "../api/settings-api";
import { SettingsForm } from "../components/settings-form";

/** `/setting` (staff, settings.manage): the site's settings object (spec §3, §7). */
export function SettingsPage() {
  const { t } = useTranslation();
  const lang = useLang();
  usePageTitle(t("settings:title"));
  const query = useQuery(editableSettingsQuery);
  const setting = query.data;

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
          {t("settings:title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("settings:subtitle")}</Typography.Text>
      </div>
      <Card>
        {query.isError ? (
          <Result
            status="warning"
            title={t("settings:loadError")}
            subTitle={errorText(query.error)}
            extra={<Button onClick={() => void query.refetch()}>{t("settings:retry")}</Button>}
          />
        ) : !setting || !query.isFetchedAfterMount ? (
          // the copy loaded at start may be old: edit only what the server says now
          <Skeleton active paragraph={{ rows: 8 }} data-testid="settings-skeleton" />
        ) : (
          <>
            {/* a save replaces the cached object: the form starts again from what the server kept */}
            <SettingsForm key={setting.updated_at} setting={setting} />
            <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
              {t("settings:updatedAt", {
                date: formatDateTime(setting.updated_at, lang),
              })}
            </Typography.Paragraph>
          </>
        )}
      </Card>
    </Space>
  );
}
