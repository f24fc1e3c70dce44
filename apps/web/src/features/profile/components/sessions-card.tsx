import type { DeviceSession } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, List, Modal, Spin, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { errorText } from "@/lib/api-error";
import { formatDateTime, formatRelativeTime } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { sessionsQuery, useEndOtherSessions, useEndSession } from "../api/sessions";

/** Profile: "where you are signed in", each session with its device, network and last activity. */
export function SessionsCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLang();
  const sessions = useQuery(sessionsQuery);
  const [confirming, setConfirming] = useState(false);
  const endOne = useEndSession({
    onSuccess: () => {
      message.success(t("auth:sessions.ended"));
    },
    onError: (error) => message.error(errorText(error)),
  });
  const endOthers = useEndOtherSessions({
    onSuccess: ({ ended }) => {
      setConfirming(false);
      message.success(t("auth:sessions.endedOthers", { count: ended }));
    },
    onError: (error) => message.error(errorText(error)),
  });

  const deviceName = (s: DeviceSession) =>
    t("auth:sessions.device", {
      browser: s.browser ?? t("auth:sessions.unknownBrowser"),
      os: s.os ?? t("auth:sessions.unknownOs"),
    });
  const title = (
    <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }} id="sessions-title">
      {t("auth:sessions.title")}
    </Typography.Title>
  );
  const data = sessions.data;
  const others = data?.filter((s) => !s.current) ?? [];

  return (
    <Card className="narrow-card" title={title} id="sessions" data-testid="sessions-card">
      <Typography.Paragraph type="secondary">{t("auth:sessions.intro")}</Typography.Paragraph>
      {sessions.isError ? (
        <LoadError query={sessions} compact />
      ) : !data ? (
        <Spin />
      ) : (
        <>
          <List
            aria-label={t("auth:sessions.list")}
            dataSource={data}
            rowKey="id"
            renderItem={(s) => (
              <List.Item
                data-testid="session-row"
                data-current={s.current}
                actions={
                  s.current
                    ? []
                    : [
                        <Button
                          key="end"
                          size="small"
                          onClick={() => endOne.mutate(s.id)}
                          loading={endOne.isPending && endOne.variables === s.id}
                          aria-label={t("auth:sessions.signOutLabel", { device: deviceName(s) })}
                          data-testid="session-end"
                        >
                          {t("auth:sessions.signOut")}
                        </Button>,
                      ]
                }
              >
                <List.Item.Meta
                  title={
                    <>
                      {deviceName(s)}{" "}
                      {s.current && (
                        <Tag color="blue" data-testid="session-current">
                          {t("auth:sessions.thisDevice")}
                        </Tag>
                      )}
                    </>
                  }
                  description={[
                    s.address
                      ? t("auth:sessions.address", { address: s.address })
                      : t("auth:sessions.unknownAddress"),
                    t("auth:sessions.since", { date: formatDateTime(s.createdAt, lang) }),
                    t("auth:sessions.lastSeen", { when: formatRelativeTime(s.lastSeenAt, lang) }),
                  ].join(" · ")}
                />
              </List.Item>
            )}
          />
          {others.length === 0 ? (
            <Typography.Paragraph data-testid="sessions-none">{t("auth:sessions.none")}</Typography.Paragraph>
          ) : (
            <Button danger onClick={() => setConfirming(true)} data-testid="sessions-end-others">
              {t("auth:sessions.signOutOthers")}
            </Button>
          )}
        </>
      )}
      <Modal
        open={confirming}
        title={t("auth:sessions.confirmTitle")}
        onCancel={() => setConfirming(false)}
        onOk={() => endOthers.mutate()}
        okText={t("auth:sessions.confirm")}
        cancelText={t("auth:sessions.cancel")}
        okButtonProps={{ danger: true, loading: endOthers.isPending }}
        destroyOnHidden
      >
        <Typography.Paragraph>{t("auth:sessions.confirmText")}</Typography.Paragraph>
      </Modal>
    </Card>
  );
}
