/** The profile's query keys (the signed-in user's own resources), in one place. */
export const profileKeys = {
  twoFactor: ["user", "me", "two-factor"] as const,
  dataRequests: ["user", "me", "data-requests"] as const,
  sessions: ["user", "me", "sessions"] as const,
  podcastFeed: ["user", "me", "podcast-feed"] as const,
};
