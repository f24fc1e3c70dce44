import { HistoryOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";

/** The payment history of `/billing`. */
export function PaymentsTitle() {
  const { t } = useTranslation();
  return (
    <span>
      <HistoryOutlined /> {t("billing:payments.title")}
    </span>
  );
}
