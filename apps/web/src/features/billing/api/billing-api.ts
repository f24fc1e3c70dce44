import type { CheckoutProvider, CustomerPlan, Lang, Payment, Receipt } from "@parlons/contract";
import { queryOptions, useMutation } from "@tanstack/react-query";
import { api, apiFile } from "@/lib/api";
import { saveFile } from "@/lib/download";
import type { MutationConfig } from "@/lib/mutation";
import { queryClient } from "@/lib/query-client";
import { loadCurrentUser } from "@/lib/session";

/** Query keys of this feature; the plans admin invalidates the same `["plans"]` prefix. */
export const billingKeys = {
  activePlans: ["plans", "active"] as const,
  providers: ["billing", "providers"] as const,
  validLatest: ["billing", "valid-latest"] as const,
  hasValidPro: ["billing", "has-valid-pro-plan"] as const,
  trial: ["billing", "trial"] as const,
  payments: (page: number) => ["billing", "payments", page] as const,
  customerPlan: (id: string) => ["billing", "customer-plan", id] as const,
  receipt: (id: string) => ["billing", "receipt", id] as const,
};

/** `GET /v1/receipts/{id}`: a payment's numbered receipt. */
export function receiptQuery(id: string) {
  return queryOptions({
    queryKey: billingKeys.receipt(id),
    queryFn: ({ signal }) =>
      api<Data<{ receipt: Receipt }>>(`/v1/receipts/${encodeURIComponent(id)}`, {
        signal,
        silent: true,
      }).then((r) => r.data.receipt),
    retry: false,
  });
}

/** Saves the receipt's PDF, made by the server in `lang`. */
export async function downloadReceiptPdf(receipt: Pick<Receipt, "id" | "number">, lang: Lang) {
  const file = await apiFile(`/v1/receipts/${encodeURIComponent(receipt.id)}/pdf`, { query: { lang } });
  saveFile(`${receipt.number}.pdf`, file);
}

export interface ProvidersInfo {
  provider: "paypal" | "demo";
  checkout: CheckoutProvider[];
  paypal_client_id: string | null;
}

type Data<T> = { message?: string; data: T };

/** `GET /v1/billing/providers`: which checkout buttons to show. */
export const providersQuery = queryOptions({
  queryKey: billingKeys.providers,
  queryFn: ({ signal }) => api<Data<ProvidersInfo>>("/v1/billing/providers", { signal }).then((r) => r.data),
  staleTime: 5 * 60_000,
});

/** `GET /v1/customer-plan/valid-latest`: the subscription that gives access now (null on the free plan). */
export const validLatestQuery = queryOptions({
  queryKey: billingKeys.validLatest,
  queryFn: ({ signal }) =>
    api<Data<{ customerPlan: CustomerPlan | null }>>("/v1/customer-plan/valid-latest", { signal }).then(
      (r) => r.data.customerPlan,
    ),
  staleTime: 0,
});

/** `GET /v1/billing/trial`: whether the learner's next subscription starts with the plan's free days. */
export const trialQuery = queryOptions({
  queryKey: billingKeys.trial,
  queryFn: ({ signal }) =>
    api<Data<{ available: boolean }>>("/v1/billing/trial", { signal, silent: true }).then(
      (r) => r.data.available,
    ),
  staleTime: 60_000,
});

/** `GET /v1/customer-plan/has-valid-pro-plan`. */
export const hasValidProQuery = queryOptions({
  queryKey: billingKeys.hasValidPro,
  queryFn: ({ signal }) =>
    api<Data<{ valid: boolean; customerPlan: CustomerPlan | null }>>("/v1/customer-plan/has-valid-pro-plan", {
      signal,
    }).then((r) => r.data.valid),
  staleTime: 0,
});

export const PAYMENTS_PAGE_SIZE = 10;

/** `GET /v1/customer-plan/payments`, newest first. */
export function paymentsQuery(page: number) {
  return queryOptions({
    queryKey: billingKeys.payments(page),
    queryFn: ({ signal }) =>
      api<Data<{ payments: Payment[]; pagination: { page: number; pageSize: number; total: number } }>>(
        "/v1/customer-plan/payments",
        { signal, query: { page, pageSize: PAYMENTS_PAGE_SIZE } },
      ).then((r) => r.data),
    staleTime: 0,
  });
}

/** `GET /v1/customer-plan/update-status/{id}`: the server re-reads the provider and applies it. */
export function updateStatus(id: string, signal?: AbortSignal) {
  return api<Data<{ customerPlan: CustomerPlan | null }>>(
    `/v1/customer-plan/update-status/${encodeURIComponent(id)}`,
    { signal, silent: true },
  ).then((r) => r.data.customerPlan);
}

/** `POST /v1/customer-plan`: starts a subscription; the learner then goes to `approveUrl`. */
export function startSubscription(body: {
  plan_id: string;
  provider: CheckoutProvider;
  locale: Lang;
  coupon?: string | undefined;
  country?: string | undefined;
}) {
  return api<Data<{ customerPlan: CustomerPlan; approveUrl: string }>>("/v1/customer-plan", {
    method: "POST",
    body,
  }).then((r) => r.data);
}

/** `POST /v1/customer-plan/demo/{id}/approve|decline` (demo provider: no money moves). */
export function demoDecision(id: string, decision: "approve" | "decline") {
  return api<Data<{ customerPlan: CustomerPlan | null }>>(
    `/v1/customer-plan/demo/${encodeURIComponent(id)}/${decision}`,
    { method: "POST" },
  ).then((r) => r.data.customerPlan);
}

/** `POST /v1/customer-plan/cancel/{id}`: access stays until the paid period ends. */
export function cancelSubscription(id: string) {
  return api<Data<{ customerPlan: CustomerPlan | null }>>(
    `/v1/customer-plan/cancel/${encodeURIComponent(id)}`,
    {
      method: "POST",
    },
  ).then((r) => r.data.customerPlan);
}

/**
 * After a plan change: reload the current user (the header's plan tag and upgrade button
 * read it from the session store) and refetch every query, since lessons' locks follow the plan.
 */
export async function refreshAfterPlanChange(): Promise<void> {
  await loadCurrentUser().catch(() => undefined);
  await queryClient.invalidateQueries();
}

/** Cancels the learner's subscription, then their plan and session are read again. */
export function useCancelSubscription(
  customerPlanId: string,
  config: MutationConfig<Awaited<ReturnType<typeof cancelSubscription>>> = {},
) {
  return useMutation({
    ...config,
    mutationFn: () => cancelSubscription(customerPlanId),
    onSuccess: async (...args) => {
      await refreshAfterPlanChange();
      await config.onSuccess?.(...args);
    },
  });
}

/**
 * The demo checkout's decision (the learner plays the buyer). An approval that made the plan
 * active reads the plan and session again before the page hears of it.
 */
export function useDemoDecision(
  id: string,
  config: MutationConfig<Awaited<ReturnType<typeof demoDecision>>, "approve" | "decline"> = {},
) {
  return useMutation({
    ...config,
    mutationFn: (decision: "approve" | "decline") => demoDecision(id, decision),
    onSuccess: async (customerPlan, decision, ...rest) => {
      if (decision === "approve" && customerPlan?.status === "ACTIVE") await refreshAfterPlanChange();
      await config.onSuccess?.(customerPlan, decision, ...rest);
    },
  });
}
