import type { CheckoutProvider, CouponQuote, Lang, Purchase, PurchaseStatus } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";
import { refreshAfterPlanChange } from "./billing-api";

type Data<T> = { message?: string; data: T };
type PurchaseList = { purchases: Purchase[]; pagination: { page: number; pageSize: number; total: number } };

/** Query keys of courses bought once. */
const purchaseKeys = {
  all: ["purchases"] as const,
  one: (id: string) => ["purchases", "one", id] as const,
  staff: (query: object) => ["purchases", "staff", query] as const,
};

/** `POST /v1/purchases`: starts buying a course once; the learner then goes to `approveUrl`. */
export function startPurchase(body: {
  plan_id: string;
  provider: CheckoutProvider;
  locale: Lang;
  coupon?: string | undefined;
  country?: string | undefined;
}) {
  return api<Data<{ purchase: Purchase; approveUrl: string }>>("/v1/purchases", {
    method: "POST",
    body,
  }).then((r) => r.data);
}

/**
 * `POST /v1/purchases/{id}/capture`: the server re-reads the order and captures it when approved
 * (idempotent: the return page may call it as often as it likes).
 */
export function purchaseCaptureQuery(id: string) {
  return queryOptions({
    queryKey: purchaseKeys.one(id),
    queryFn: () =>
      api<Data<{ purchase: Purchase }>>(`/v1/purchases/${encodeURIComponent(id)}/capture`, {
        method: "POST",
        silent: true,
      }).then((r) => r.data.purchase),
    retry: false,
    staleTime: 0,
  });
}

/** The demo checkout's decision for a purchase (no money moves); an approval refetches what it opened. */
export function usePurchaseDemoDecision(
  id: string,
  config: MutationConfig<Purchase, "approve" | "decline"> = {},
) {
  return useMutation({
    ...config,
    mutationFn: (decision: "approve" | "decline") =>
      api<Data<{ purchase: Purchase }>>(`/v1/purchases/${encodeURIComponent(id)}/demo/${decision}`, {
        method: "POST",
      }).then((r) => r.data.purchase),
    onSuccess: async (purchase, ...rest) => {
      if (purchase.status === "PAID") await refreshAfterPlanChange();
      await config.onSuccess?.(purchase, ...rest);
    },
  });
}

/** `GET /v1/purchases/all` (customer-plans.manage): every learner's purchases. */
export function staffPurchasesQuery(query: {
  page: number;
  pageSize: number;
  status?: PurchaseStatus | undefined;
}) {
  return queryOptions({
    queryKey: purchaseKeys.staff(query),
    queryFn: ({ signal }) =>
      api<Data<PurchaseList>>("/v1/purchases/all", { query: { ...query }, signal }).then((r) => r.data),
  });
}

/** `POST /v1/purchases/{id}/refund` (staff): refunds at the provider, closes the course, issues a credit note. */
export function useRefundPurchase(config: MutationConfig<Purchase, string> = {}) {
  const client = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: (id: string) =>
      api<Data<{ purchase: Purchase }>>(`/v1/purchases/${encodeURIComponent(id)}/refund`, {
        method: "POST",
      }).then((r) => r.data.purchase),
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: purchaseKeys.all });
    },
  });
}

/** `GET /v1/coupons/quote`: what the offer costs with a code (refusals come back as coded errors). */
export function quoteCoupon(code: string, planId: string) {
  return api<Data<CouponQuote>>("/v1/coupons/quote", { query: { code, plan_id: planId }, silent: true }).then(
    (r) => r.data,
  );
}
