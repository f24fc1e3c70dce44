import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api-error";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchOnWindowFocus: false,
      // one more try for a network hiccup or a 5xx, none for a timeout (20 s already spent) nor a
      // 4xx: the screen then shows its error state with Retry (components/load-error)
      retry: (count, error) =>
        count < 1 &&
        !(
          error instanceof ApiError &&
          (error.code === "TIMEOUT" || (error.status > 0 && error.status < 500))
        ),
      retryDelay: 1_000,
    },
    mutations: { retry: false },
  },
});
