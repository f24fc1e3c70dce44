import type { PlanInterval } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { formatMoney } from "@/lib/format";
import { useSession } from "@/lib/session";
import { useLang } from "@/lib/use-locale";
import { trialQuery } from "../api/billing-api";
import { intervalKey } from "../lib/billing-format";

/** "9,90 € / mois", "14 jours gratuits, puis 9,90 € / mois", or "Gratuit" for a zero price. */
export function PlanPrice({
  plan: { amount, currency, interval, trial_days: trialDays = 0 },
  className,
}: {
  plan: { amount: number; currency: string; interval: PlanInterval; trial_days?: number };
  className?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const trial = useTrialAvailable(trialDays > 0 && interval !== "once" && amount > 0);
  if (amount <= 0) return <span className={className}>{t("billing:price.free")}</span>;
  return (
    <span className={className}>
      {trial && (
        <span className="plan-price__trial" data-testid="plan-trial">
          {t("billing:price.trialThen", { count: trialDays })}{" "}
        </span>
      )}
      <strong className="plan-price__amount">{formatMoney(amount, currency, lang)}</strong>{" "}
      <span className="plan-price__interval">{t(intervalKey(interval))}</span>
    </span>
  );
}

/**
 * Whether free days are offered to whoever reads the page: a visitor (their first subscription
 * would have them), or a learner whose one trial is still unused (`GET /v1/billing/trial`).
 */
export function useTrialAvailable(offered: boolean): boolean {
  const { status } = useSession();
  const signedIn = status === "authenticated";
  const trial = useQuery({ ...trialQuery, enabled: offered && signedIn });
  if (!offered) return false;
  return signedIn ? trial.data === true : true;
}
