import { wordKey } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useMemo, useState } from "react";
import type { TranscriptWords } from "@/features/player/components/word-line";
import { wordStatusesQuery } from "../api/word-statuses";

// the sheet and its query code load on the first tap, not with the lesson page
const WordSheet = lazy(() => import("./word-sheet"));

/**
 * A lesson transcript's words as buttons: coloured by the learner's words in the course's
 * language, a tap opening the word's sheet (its meanings, "add to my words").
 */
export function useTranscriptWords(
  lessonId: string,
  language: string,
): { words: TranscriptWords; sheet: ReactNode } {
  const statuses = useQuery(wordStatusesQuery(language));
  const [open, setOpen] = useState<{ word: string; cueId: string } | null>(null);
  const known = statuses.data;
  const words = useMemo<TranscriptWords>(
    () => ({
      statusOf: (word) => known?.get(wordKey(word)),
      onWord: (word, cue) => {
        if (cue.id) setOpen({ word, cueId: cue.id });
      },
    }),
    [known],
  );
  const sheet = open && (
    <Suspense fallback={null}>
      <WordSheet
        lessonId={lessonId}
        word={open.word}
        cueId={open.cueId}
        language={language}
        onClose={() => setOpen(null)}
      />
    </Suspense>
  );
  return { words, sheet };
}
