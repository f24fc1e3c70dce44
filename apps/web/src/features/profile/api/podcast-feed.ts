import type { Locale, PodcastFeed, PodcastFeedResponse } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";
import { profileKeys } from "./profile-keys";

/** Whether the learner has a private podcast feed, and since when (its URL is never read back). */
export const podcastFeedQuery = queryOptions({
  queryKey: profileKeys.podcastFeed,
  queryFn: ({ signal }) => api<PodcastFeedResponse>("/v1/podcast/feed", { signal }).then((r) => r.data.feed),
});

const rotateFeed = (lang: Locale) =>
  api<PodcastFeedResponse>("/v1/podcast/feed", { method: "POST", query: { lang } }).then((r) => r.data.feed);
const revokeFeed = () =>
  api<PodcastFeedResponse>("/v1/podcast/feed", { method: "DELETE" }).then((r) => r.data.feed);

/** Makes the feed a new secret URL (creates it, or rotates it); the answer holds the URL, this once. */
export function useRotatePodcastFeed(config: MutationConfig<PodcastFeed, Locale> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: rotateFeed,
    onSuccess: async (feed, ...rest) => {
      await config.onSuccess?.(feed, ...rest);
      // the URL stays with the card that showed it, not in the cache
      queryClient.setQueryData(podcastFeedQuery.queryKey, { ...feed, url: null });
    },
  });
}

/** Revokes the feed: its URL and its episodes stop working. */
export function useRevokePodcastFeed(config: MutationConfig<PodcastFeed> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: revokeFeed,
    onSuccess: async (feed, ...rest) => {
      await config.onSuccess?.(feed, ...rest);
      queryClient.setQueryData(podcastFeedQuery.queryKey, feed);
    },
  });
}
