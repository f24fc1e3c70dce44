import type { CheckoutProvider } from "@parlons/contract";
import { useMutation } from "@tanstack/react-query";
import { App } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ApiError, errorText } from "@/lib/api-error";
import { useLang } from "@/lib/use-locale";
import { checkoutTarget } from "../lib/billing-format";
import { startSubscription } from "./billing-api";
import { startPurchase } from "./purchases-api";

/** Toast for a failed call; the API client already notifies network errors and 5xx. */
export function useShowError() {
  const { message } = App.useApp();
  return (error: unknown) => {
    if (error instanceof ApiError && (error.status === 0 || error.status >= 500)) return;
    void message.error(errorText(error));
  };
}

/**
 * Starts a subscription, or the purchase of a course sold once (`once`), and sends the learner to
 * approve it: PayPal (and its card option) by a full-page redirect, the demo checkout by an
 * in-app navigation.
 */
export function useStartCheckout() {
  const lang = useLang();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useShowError();
  return useMutation({
    mutationFn: ({
      planId,
      provider,
      once,
      coupon,
      country,
    }: {
      planId: string;
      provider: CheckoutProvider;
      once?: boolean;
      coupon?: string | undefined;
      /** The country the learner declares they live in: their invoice's VAT. */
      country?: string | undefined;
    }): Promise<{ approveUrl: string }> =>
      once
        ? startPurchase({ plan_id: planId, provider, locale: lang, coupon, country })
        : startSubscription({ plan_id: planId, provider, locale: lang, coupon, country }),
    onSuccess: ({ approveUrl }) => {
      const target = checkoutTarget(approveUrl);
      if (!target) void message.error(t("billing:checkout.badLink"));
      else if (target.kind === "external") window.location.assign(target.url);
      else navigate(target.path);
    },
    onError: showError,
  });
}
