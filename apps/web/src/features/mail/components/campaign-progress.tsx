import { useQuery } from "@tanstack/react-query";
import { Button, Card, Progress, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { campaignQuery } from "../api/campaigns-api";

/** Live progress of a campaign just queued: polls it until it is SENT (or FAILED). */
export function CampaignProgress({ id, onDone }: { id: string; onDone: () => void }) {
  const { t } = useTranslation();
  const campaign = useQuery(campaignQuery(id)).data;
  const total = campaign?.total ?? 0;
  const done = (campaign?.sent ?? 0) + (campaign?.failed ?? 0);
  const percent = total ? Math.round((done / total) * 100) : 0;
  const finished = campaign?.status === "SENT" || campaign?.status === "FAILED";
  return (
    <Card title={finished ? t("mail:send.done") : t("mail:send.progressTitle")}>
      <div data-testid="campaign-progress" data-percent={percent} data-status={campaign?.status ?? ""}>
        <Progress
          percent={percent}
          status={campaign?.status === "FAILED" ? "exception" : finished ? "success" : "active"}
          format={(value) => `${value ?? 0} %`}
        />
        <Typography.Text type="secondary">
          {t("mail:send.progress", { sent: campaign?.sent ?? 0, failed: campaign?.failed ?? 0, total })}
        </Typography.Text>
      </div>
      {finished && (
        <Button style={{ marginTop: 12 }} onClick={onDone}>
          {t("mail:send.newMail")}
        </Button>
      )}
    </Card>
  );
}
