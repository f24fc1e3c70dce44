import type { WordLookup, WordStatus } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";

// keys under ["words"] (word-statuses.ts lists them), written out: an import of the lesson
// page's own module from this lazy chunk would make the page's chunk export it

/** A word of a lesson's lines: its meanings (the course's glossary, then an installed dictionary) and its status. */
export const wordLookupQuery = (lessonId: string, word: string) =>
  queryOptions({
    queryKey: ["words", "lookup", lessonId, word.toLocaleLowerCase()],
    queryFn: ({ signal }) =>
      api<{ data: WordLookup }>(`/v1/lessons/${lessonId}/words/lookup`, {
        query: { word },
        signal,
        silent: true,
      }).then((r) => r.data),
    staleTime: 5 * 60_000,
  });

interface AddedWord {
  word: string;
  status: WordStatus;
  added: boolean;
}

/** "Add to my words": a word card in the review deck; the words, their counts and the deck are read again. */
export function useAddWord(lessonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { word: string; cue_id: string }) =>
      api<{ data: AddedWord }>(`/v1/lessons/${lessonId}/words`, { method: "POST", body }).then((r) => r.data),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["words"] });
      void queryClient.invalidateQueries({ queryKey: ["review"] });
    },
  });
}
