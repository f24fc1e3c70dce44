import { Button, Space } from "antd";
import { useTranslation } from "react-i18next";

type Decision = "approve" | "decline";

/** The demo checkout's two buttons: the learner plays the buyer (no money moves). */
export function DemoDecisionButtons({
  pending,
  deciding,
  onDecide,
}: {
  pending: boolean;
  deciding: Decision | undefined;
  onDecide: (decision: Decision) => void;
}) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <Button
        type="primary"
        size="large"
        data-testid="demo-approve"
        loading={pending && deciding === "approve"}
        disabled={pending}
        onClick={() => onDecide("approve")}
      >
        {t("billing:demo.approve")}
      </Button>
      <Button
        danger
        size="large"
        data-testid="demo-decline"
        loading={pending && deciding === "decline"}
        disabled={pending}
        onClick={() => onDecide("decline")}
      >
        {t("billing:demo.decline")}
      </Button>
    </Space>
  );
}
