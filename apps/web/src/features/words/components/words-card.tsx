import { TranslationOutlined } from "@ant-design/icons";
import type { WordCounts } from "@parlons/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { Card, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api";
import { languageName } from "@/lib/format";
import { useLang } from "@/lib/use-locale";

/**
 * The learner's known and learning words per language. Its key is `wordKeys.counts`, written out
 * here: importing the keys would make them a chunk of their own, shared with the lesson page.
 */
const wordCountsQuery = queryOptions({
  queryKey: ["words", "counts"],
  queryFn: ({ signal }) =>
    api<{ data: WordCounts }>("/v1/words/counts", { signal, silent: true }).then((r) => r.data.languages),
});

/** Dashboard card: the learner's known words, per language they learn. */
export function WordsCard() {
  const { t } = useTranslation();
  const lang = useLang();
  const { data, isPending } = useQuery(wordCountsQuery);
  return (
    <Card
      data-testid="words-card"
      loading={isPending}
      title={
        <span>
          <TranslationOutlined aria-hidden /> {t("review:words.dashboard.title")}
        </span>
      }
    >
      {data?.length ? (
        <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {data.map((row) => (
            <li key={row.language} data-testid="words-count" data-language={row.language}>
              <Typography.Text strong>{languageName(row.language, lang)}</Typography.Text>{" "}
              <span data-testid="words-known">{t("review:words.dashboard.known", { count: row.known })}</span>
              {" · "}
              <Typography.Text type="secondary">
                {t("review:words.dashboard.learning", { count: row.learning })}
              </Typography.Text>
            </li>
          ))}
        </ul>
      ) : (
        <Typography.Paragraph type="secondary">{t("review:words.dashboard.empty")}</Typography.Paragraph>
      )}
    </Card>
  );
}
