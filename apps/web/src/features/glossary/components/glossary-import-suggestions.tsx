import {
  GLOSSARY_LIMITS,
  type GlossaryEntryBody,
  type GlossaryImportResult,
  type GlossarySuggestion,
} from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Empty, List, Skeleton, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FilePickButton } from "@/components/file-pick-button";
import { LoadError } from "@/components/load-error";
import { errorText } from "@/lib/api-error";
import { glossarySuggestionsQuery, useImportGlossary } from "../api/glossary-api";

/** An entry as the glossary form holds it. */
export type Values = { term: string; meaning_fr: string; meaning_en: string; note: string };

/** A CSV file picked, sent, and what came of it: entries added and changed, lines left out and why. */
export function ImportCsv({ courseId }: { courseId: string }) {
  const { t } = useTranslation("courses");
  const { message } = App.useApp();
  const [result, setResult] = useState<{ file: string; result: GlossaryImportResult } | null>(null);
  const [file, setFile] = useState("");
  const upload = useImportGlossary(courseId, {
    onSuccess: (data) => setResult({ file, result: data }),
    onError: (error) => void message.error(errorText(error)),
  });

  async function send(picked: File) {
    setResult(null);
    setFile(picked.name);
    if (picked.size > GLOSSARY_LIMITS.csvBytes) {
      void message.error(t("glossary.tooBig"));
      return;
    }
    upload.mutate(await picked.text());
  }

  return (
    <>
      <FilePickButton
        label={t("glossary.import")}
        accept=".csv,text/csv"
        loading={upload.isPending}
        onPick={(picked) => void send(picked)}
        testId="glossary-import"
        inputTestId="glossary-import-file"
      />
      <Typography.Text type="secondary">{t("glossary.csvHint")}</Typography.Text>
      {result && (
        <Alert
          type={result.result.errors.length ? "warning" : "success"}
          showIcon
          closable={{ "aria-label": t("common:actions.close") }}
          onClose={() => setResult(null)}
          data-testid="glossary-import-result"
          title={t("glossary.imported", {
            file: result.file,
            added: t("glossary.added", { count: result.result.created }),
            updated: t("glossary.updated", { count: result.result.updated }),
          })}
          description={
            result.result.errors.length > 0 && (
              <ul className="translations-problems">
                {result.result.errors.slice(0, 50).map((e) => (
                  <li key={`${e.line}-${e.code}`}>
                    {t("glossary.rowError", { line: e.line, reason: t(`glossary.rowErrors.${e.code}`) })}
                  </li>
                ))}
              </ul>
            )
          }
        />
      )}
    </>
  );
}

export function Suggestions({
  courseId,
  onEdit,
  accept,
  accepting,
}: {
  courseId: string;
  onEdit: (values: Values) => void;
  accept: (body: GlossaryEntryBody) => void;
  accepting: boolean;
}) {
  const { t } = useTranslation("courses");
  const suggestions = useQuery(glossarySuggestionsQuery(courseId));
  if (suggestions.isError) return <LoadError query={suggestions} compact />;
  if (suggestions.isPending) return <Skeleton active />;
  const values = (s: GlossarySuggestion): Values => ({
    term: s.term,
    meaning_fr: s.meaning_fr,
    meaning_en: s.meaning_en,
    note: "",
  });
  return (
    <>
      <Typography.Paragraph type="secondary">{t("glossary.suggestionsHint")}</Typography.Paragraph>
      <List
        data-testid="glossary-suggestions"
        dataSource={suggestions.data}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("glossary.noSuggestions")} />,
        }}
        renderItem={(s) => {
          const ready = s.meaning_fr !== "" || s.meaning_en !== "";
          return (
            <List.Item
              key={s.term}
              data-testid="glossary-suggestion"
              actions={[
                <Button
                  key="accept"
                  size="small"
                  type="primary"
                  disabled={!ready}
                  loading={accepting}
                  aria-label={t("glossary.acceptOne", { term: s.term })}
                  onClick={() => accept(values(s))}
                >
                  {t("glossary.accept")}
                </Button>,
                <Button
                  key="edit"
                  size="small"
                  aria-label={t("glossary.editFirst", { term: s.term })}
                  onClick={() => onEdit(values(s))}
                >
                  {t("glossary.complete")}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={
                  <Space wrap size={4}>
                    <Typography.Text strong>{s.term}</Typography.Text>
                    <Tag>{t("glossary.count", { count: s.count })}</Tag>
                    {s.source !== "none" && <Tag color="blue">{t(`glossary.sources.${s.source}`)}</Tag>}
                  </Space>
                }
                description={
                  <>
                    {ready ? (
                      <div>{[s.meaning_fr, s.meaning_en].filter(Boolean).join(" · ")}</div>
                    ) : (
                      <div>{t("glossary.noMeaning")}</div>
                    )}
                    <div className="glossary__example">
                      {t("glossary.example", {
                        text: s.example.text,
                        translation: s.example.translation_fr || s.example.translation_en || "—",
                      })}
                    </div>
                  </>
                }
              />
            </List.Item>
          );
        }}
      />
    </>
  );
}
