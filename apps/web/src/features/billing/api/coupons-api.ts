import type { Coupon, CreateCouponBody } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";

type Data<T> = { message?: string; data: T };
type CouponList = { coupons: Coupon[]; pagination: { page: number; pageSize: number; total: number } };

const couponKeys = {
  all: ["coupons"] as const,
  list: (page: number) => ["coupons", "list", page] as const,
};

/** `GET /v1/coupons` (plans.manage). */
export function couponsQuery(page: number, pageSize: number) {
  return queryOptions({
    queryKey: couponKeys.list(page),
    queryFn: ({ signal }) =>
      api<Data<CouponList>>("/v1/coupons", { query: { page, pageSize }, signal }).then((r) => r.data),
  });
}

/** Creates a coupon (no id) or changes one, then the list is read again. */
export function useSaveCoupon(
  config: MutationConfig<Coupon, { id?: string | undefined; body: CreateCouponBody }> = {},
) {
  const client = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ id, body }) =>
      api<Data<{ coupon: Coupon }>>(id ? `/v1/coupons/${encodeURIComponent(id)}` : "/v1/coupons", {
        method: id ? "PUT" : "POST",
        body,
      }).then((r) => r.data.coupon),
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: couponKeys.all });
    },
  });
}

/** Deletes a coupon never used, or deactivates a used one. */
export function useDeleteCoupon(config: MutationConfig<{ deleted: boolean; coupon: Coupon }, string> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: (id: string) =>
      api<Data<{ deleted: boolean; coupon: Coupon }>>(`/v1/coupons/${encodeURIComponent(id)}`, {
        method: "DELETE",
      }).then((r) => r.data),
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: couponKeys.all });
    },
  });
}
