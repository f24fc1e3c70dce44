import type { Plan } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { PlanBody } from "../lib/plan-form-values";

type Data<T> = { message?: string; data: T };

/** The plans' query keys: a save or a delete reads every plan list again. */
const planKeys = { all: ["plans"] as const, staff: ["plans", "all"] as const };

/** `GET /v1/plans` (staff): every plan, active or not. */
export const allPlansQuery = queryOptions({
  queryKey: planKeys.staff,
  queryFn: ({ signal }) => api<Data<{ plans: Plan[] }>>("/v1/plans", { signal }).then((r) => r.data.plans),
  staleTime: 0,
});

/** Create (`POST /v1/plans`) or update (`PUT /v1/plans/{id}`); errors are shown by the form itself. */
export function useSavePlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: PlanBody }) =>
      api<Data<{ plan: Plan }>>(id ? `/v1/plans/${encodeURIComponent(id)}` : "/v1/plans", {
        method: id ? "PUT" : "POST",
        body,
        silent: true,
      }).then((r) => r.data.plan),
    onSuccess: () => client.invalidateQueries({ queryKey: planKeys.all }),
  });
}

/** `DELETE /v1/plans/{id}`: deleted, or only deactivated when learners subscribed to it. */
export function useDeletePlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<Data<{ deleted: boolean; plan: Plan }>>(`/v1/plans/${encodeURIComponent(id)}`, {
        method: "DELETE",
        silent: true,
      }).then((r) => r.data),
    onSuccess: () => client.invalidateQueries({ queryKey: planKeys.all }),
  });
}
