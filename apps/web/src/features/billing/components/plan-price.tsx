import type { PlanInterval } from "@parlons/contract";
import { useTranslation } from "react-i18next";
import { formatMoney } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { intervalKey } from "../lib/billing-format";

/** "9,90 € / mois", or "Gratuit" for a zero price. */
export function PlanPrice({
  plan: { amount, currency, interval },
  className,
}: {
  plan: { amount: number; currency: string; interval: PlanInterval };
  className?: string;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  if (amount <= 0) return <span className={className}>{t("billing:price.free")}</span>;
  return (
    <span className={className}>
      <strong className="plan-price__amount">{formatMoney(amount, currency, lang)}</strong>{" "}
      <span className="plan-price__interval">{t(intervalKey(interval))}</span>
    </span>
  );
}
