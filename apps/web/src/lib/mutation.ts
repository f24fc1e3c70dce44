import type { UseMutationOptions } from "@tanstack/react-query";

/**
 * What a component adds to a feature's mutation hook: its messages and its own state. The hook
 * runs the component's `onSuccess` first, then keeps the caches right (the invalidations are the
 * feature's, written once in its `api/`).
 */
export type MutationConfig<TData, TVariables = void> = Pick<
  UseMutationOptions<TData, Error, TVariables>,
  "onSuccess" | "onError"
>;
