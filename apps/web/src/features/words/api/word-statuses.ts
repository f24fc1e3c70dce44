import type { WordStatuses } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

/*
 * The learner's words are read under ["words"]: ["words", "statuses", language] here, and in
 * their own files (each writes its key out, so that no chunk is shared with the lesson page)
 * ["words", "lookup", lessonId, word] and ["words", "counts"]; adding a word reads them all again.
 */

/** The learner's words in a language, by word: the transcript colours them. */
export const wordStatusesQuery = (language: string) =>
  queryOptions({
    queryKey: ["words", "statuses", language],
    queryFn: ({ signal }) =>
      api<{ data: WordStatuses }>("/v1/words", { query: { language }, signal, silent: true }).then(
        (r) => new Map(r.data.words.map((w) => [w.word, w.status])),
      ),
    staleTime: 5 * 60_000,
  });
