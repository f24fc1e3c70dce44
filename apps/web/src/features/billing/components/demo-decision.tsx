import { ExperimentOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Descriptions, Space, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

type Decision = "approve" | "decline";

/** The demo checkout's two buttons: the learner plays the buyer (no money moves). */
function DemoDecisionButtons({
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

/**
 * "Demo payment: no money moves": what is bought and at what price, and the two buttons with which
 * the learner plays the buyer. One card for subscriptions and for courses bought once.
 */
export function DemoCheckoutCard({
  title,
  plan,
  price,
  pending,
  deciding,
  onDecide,
}: {
  title: string;
  plan: string;
  price: ReactNode;
  pending: boolean;
  deciding: Decision | undefined;
  onDecide: (decision: Decision) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card data-testid="demo-checkout">
      <Space orientation="vertical" size="large" style={{ width: "100%" }}>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Alert
          type="warning"
          showIcon
          icon={<ExperimentOutlined />}
          title={t("billing:demo.label")}
          description={t("billing:demo.explain")}
          data-testid="demo-label"
        />
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            { key: "plan", label: t("billing:fields.plan"), children: plan },
            { key: "price", label: t("billing:fields.price"), children: price },
          ]}
        />
        <DemoDecisionButtons pending={pending} deciding={deciding} onDecide={onDecide} />
      </Space>
    </Card>
  );
}
