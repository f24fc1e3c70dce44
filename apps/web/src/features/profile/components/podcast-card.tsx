import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Card, Input, Modal, Space, Spin, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { errorText } from "@/lib/api-error";
import { formatDateTime } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { podcastFeedQuery, useRevokePodcastFeed, useRotatePodcastFeed } from "../api/podcast-feed";

type Confirming = "rotate" | "revoke" | null;

/**
 * Profile: the learner's private podcast feed. Its URL is shown once, when it is made (only its
 * hash is kept); a new address (rotation) and revocation are confirmed first, since the podcast
 * app subscribed to the old one stops receiving anything.
 */
export function PodcastCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLang();
  const feed = useQuery(podcastFeedQuery);
  const [url, setUrl] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const rotate = useRotatePodcastFeed({
    onSuccess: (made) => {
      setConfirming(null);
      setUrl(made.url);
    },
    onError: (error) => message.error(errorText(error)),
  });
  const revoke = useRevokePodcastFeed({
    onSuccess: () => {
      setConfirming(null);
      setUrl(null);
      message.success(t("app:podcast.revoked"));
    },
    onError: (error) => message.error(errorText(error)),
  });
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      message.success(t("app:podcast.copied"));
    } catch {
      message.info(t("app:podcast.copyByHand"));
    }
  };

  const title = (
    <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }} id="podcast-title">
      {t("app:podcast.title")}
    </Typography.Title>
  );
  const data = feed.data;

  return (
    <Card className="narrow-card" title={title} id="podcast" data-testid="podcast-card">
      <Typography.Paragraph type="secondary">{t("app:podcast.intro")}</Typography.Paragraph>
      {feed.isError ? (
        <LoadError query={feed} compact />
      ) : !data ? (
        <Spin />
      ) : (
        <>
          {url && (
            <Alert
              type="success"
              showIcon
              style={{ marginBottom: 16 }}
              message={t("app:podcast.madeTitle")}
              description={
                <Space orientation="vertical" style={{ width: "100%" }}>
                  <Typography.Text>{t("app:podcast.madeText")}</Typography.Text>
                  <Space.Compact style={{ width: "100%" }}>
                    <Input
                      readOnly
                      value={url}
                      aria-label={t("app:podcast.urlLabel")}
                      onFocus={(e) => e.target.select()}
                      data-testid="podcast-url"
                    />
                    <Button onClick={copy} data-testid="podcast-copy">
                      {t("app:podcast.copy")}
                    </Button>
                  </Space.Compact>
                </Space>
              }
            />
          )}
          {data.active ? (
            <>
              <Typography.Paragraph data-testid="podcast-active">
                {t("app:podcast.active", { date: formatDateTime(data.rotated_at ?? "", lang) })}
              </Typography.Paragraph>
              <Space wrap>
                <Button onClick={() => setConfirming("rotate")} data-testid="podcast-rotate">
                  {t("app:podcast.rotate")}
                </Button>
                <Button danger onClick={() => setConfirming("revoke")} data-testid="podcast-revoke">
                  {t("app:podcast.revoke")}
                </Button>
              </Space>
            </>
          ) : (
            <Button
              type="primary"
              onClick={() => rotate.mutate(lang)}
              loading={rotate.isPending}
              data-testid="podcast-create"
            >
              {t("app:podcast.create")}
            </Button>
          )}
        </>
      )}
      <Modal
        open={confirming !== null}
        title={t(confirming === "revoke" ? "app:podcast.revokeTitle" : "app:podcast.rotateTitle")}
        onCancel={() => setConfirming(null)}
        onOk={() => (confirming === "revoke" ? revoke.mutate() : rotate.mutate(lang))}
        okText={t(confirming === "revoke" ? "app:podcast.revoke" : "app:podcast.rotate")}
        cancelText={t("app:podcast.cancel")}
        okButtonProps={{ danger: confirming === "revoke", loading: rotate.isPending || revoke.isPending }}
        destroyOnHidden
      >
        <Typography.Paragraph>
          {t(confirming === "revoke" ? "app:podcast.revokeText" : "app:podcast.rotateText")}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
