import { CheckOutlined, PlusOutlined } from "@ant-design/icons";
import { pickField, type WordMeaning } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Modal, Skeleton, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { useLang } from "@/lib/use-locale";
import { useAddWord, wordLookupQuery } from "../api/words-api";
import "../words.css";

export interface WordSheetProps {
  lessonId: string;
  /** The word as the line writes it, and the line. */
  word: string;
  cueId: string;
  /** The language of the course (the word's `lang`). */
  language: string;
  onClose: () => void;
}

/** Where a meaning comes from, as the learner reads it. */
function SourceOf({ meaning }: { meaning: WordMeaning }) {
  const { t } = useTranslation();
  return (
    <Typography.Text type="secondary" className="word-sheet__source" data-testid="word-source">
      {meaning.source === "glossary"
        ? t("review:words.source.glossary")
        : t("review:words.source.dictionary", { name: meaning.dictionary })}
    </Typography.Text>
  );
}

/**
 * A tapped word's meanings, each saying where it comes from (the course's glossary or a
 * dictionary), its status for the learner, and "Add to my words". Loaded on the first tap.
 */
export default function WordSheet({ lessonId, word, cueId, language, onClose }: WordSheetProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const lookup = useQuery(wordLookupQuery(lessonId, word));
  const add = useAddWord(lessonId);
  const status = add.data?.status ?? lookup.data?.status;
  const meanings = (lookup.data?.meanings ?? []).filter((m) => pickField(m, "meaning", lang));

  return (
    <Modal
      open
      onCancel={onClose}
      title={
        <span lang={language} data-testid="word-sheet-title">
          {word}
        </span>
      }
      footer={null}
      destroyOnHidden
      data-testid="word-sheet"
    >
      {lookup.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : lookup.isError ? (
        <Alert type="error" showIcon title={errorText(lookup.error)} />
      ) : (
        <Space orientation="vertical" style={{ width: "100%" }} data-testid="word-sheet-body">
          {status && (
            <Tag
              color={status === "known" ? "green" : status === "learning" ? "gold" : "default"}
              data-testid="word-status"
            >
              {t(`review:words.status.${status}`)}
            </Tag>
          )}
          {meanings.length === 0 ? (
            <Typography.Paragraph type="secondary" data-testid="word-no-meaning">
              {t("review:words.noMeaning")}
            </Typography.Paragraph>
          ) : (
            <ul className="word-sheet__meanings">
              {meanings.map((m, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one answer's meanings never reorder
                <li key={i} data-testid="word-meaning">
                  <Typography.Paragraph className="word-sheet__meaning">
                    {pickField(m, "meaning", lang)}
                  </Typography.Paragraph>
                  {m.note && (
                    <Typography.Text type="secondary" className="word-sheet__note">
                      {m.note}
                    </Typography.Text>
                  )}
                  <SourceOf meaning={m} />
                </li>
              ))}
            </ul>
          )}
          {add.isError && <Alert type="error" showIcon title={errorText(add.error)} />}
          {status === "new" ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              loading={add.isPending}
              onClick={() => add.mutate({ word, cue_id: cueId })}
              data-testid="word-add"
            >
              {t("review:words.add")}
            </Button>
          ) : (
            <Typography.Text data-testid="word-in-deck">
              <CheckOutlined /> {add.data?.added ? t("review:words.added") : t("review:words.inDeck")}
            </Typography.Text>
          )}
        </Space>
      )}
    </Modal>
  );
}
