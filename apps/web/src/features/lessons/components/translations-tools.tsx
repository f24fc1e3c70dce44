import { DownloadOutlined } from "@ant-design/icons";
import { LOCALES, type Locale, type TranslationFormat } from "@parlons/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Dropdown, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FilePickButton } from "@/components/file-pick-button";
import { courseKeys } from "@/features/courses/api/course-queries";
import { ApiError, errorText } from "@/lib/api-error";
import { downloadTranslations, importTranslations } from "../api/translations-api";

const languageNames: Record<Locale, string> = { fr: "Français", en: "English", es: "Español" };

/** Staff: the course's lines and translations exported as CSV or XLIFF, and imported back by line id. */
export function TranslationsTools({ courseId }: { courseId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<{ file: string; lines: string[] } | null>(null);

  const items = [
    { key: "csv:fr", label: t("courses:translations.csv") },
    ...(["xliff12", "xliff20"] as const).flatMap((format) =>
      LOCALES.map((lang) => ({
        key: `${format}:${lang}`,
        label: t(`courses:translations.${format}`, { language: languageNames[lang] }),
      })),
    ),
  ];

  async function exportAs(key: string) {
    const [format, lang] = key.split(":") as [TranslationFormat, Locale];
    try {
      await downloadTranslations(courseId, format, lang);
    } catch (error) {
      message.error(errorText(error));
    }
  }

  async function importFile(file: File) {
    setBusy(true);
    setProblems(null);
    try {
      const result = await importTranslations(courseId, await file.text());
      message.success(
        t("courses:translations.imported", { count: result.updated, unchanged: result.unchanged }),
      );
      void queryClient.invalidateQueries({ queryKey: courseKeys.lessons(courseId) });
    } catch (error) {
      const rows = error instanceof ApiError && error.errors ? Object.entries(error.errors) : [];
      setProblems({
        file: file.name,
        lines: [errorText(error), ...rows.map(([where, why]) => `${where}: ${why.join(" ")}`)],
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Space wrap>
        <Dropdown menu={{ items, onClick: ({ key }) => void exportAs(key) }} trigger={["click"]}>
          <Button icon={<DownloadOutlined />} data-testid="translations-export">
            {t("courses:translations.export")}
          </Button>
        </Dropdown>
        <FilePickButton
          label={t("courses:translations.import")}
          accept=".csv,.xlf,.xliff,text/csv,application/xliff+xml"
          loading={busy}
          onPick={(file) => void importFile(file)}
          testId="translations-import"
        />
      </Space>
      {problems && (
        <Alert
          type="error"
          showIcon
          closable={{ "aria-label": t("common:actions.close") }}
          onClose={() => setProblems(null)}
          title={t("courses:translations.failed", { file: problems.file })}
          description={
            <ul className="translations-problems">
              {problems.lines.slice(0, 50).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          }
          data-testid="translations-problems"
        />
      )}
    </>
  );
}
