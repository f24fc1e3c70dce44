import type { Passkey } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Empty, Form, List, Modal, Space, Spin, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { addPasskey, passkeyErrorText, passkeysSupported } from "@/features/auth/api/passkeys";
import { PasskeyNameField } from "@/features/auth/components/two-factor/passkey-name-field";
import { errorText } from "@/lib/api-error";
import { formatDate } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { passkeysQuery, removePasskey, renamePasskey } from "../api/passkeys";
import { twoFactorQuery } from "../api/two-factor";

type Editing = { mode: "add" } | { mode: "rename"; passkey: Passkey } | null;

/** Profile, security: the account's passkeys (add with a name, rename, remove after a confirmation). */
export function PasskeysCard() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const lang = useLang();
  const queryClient = useQueryClient();
  const list = useQuery(passkeysQuery);
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const supported = passkeysSupported();

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey });
    await queryClient.invalidateQueries({ queryKey: twoFactorQuery.queryKey });
  };
  const open = (next: Editing) => {
    form.setFieldsValue({ name: next?.mode === "rename" ? next.passkey.name : "" });
    setEditing(next);
  };
  const save = async ({ name }: { name: string }) => {
    if (!editing) return;
    setSaving(true);
    try {
      if (editing.mode === "add") {
        await addPasskey(name.trim());
        message.success(t("auth:passkey.added"));
      } else {
        await renamePasskey(editing.passkey.id, name.trim());
        message.success(t("auth:passkey.renamed"));
      }
      setEditing(null);
      await refresh();
    } catch (error) {
      message.error(passkeyErrorText(error));
    } finally {
      setSaving(false);
    }
  };
  const remove = (passkey: Passkey) =>
    modal.confirm({
      title: t("auth:passkey.removeTitle", { name: passkey.name }),
      content: t("auth:passkey.removeText"),
      okText: t("auth:passkey.remove"),
      okButtonProps: { danger: true },
      cancelText: t("auth:passkey.cancel"),
      onOk: async () => {
        try {
          await removePasskey(passkey.id);
          message.success(t("auth:passkey.removed"));
          await refresh();
        } catch (error) {
          message.error(errorText(error));
        }
      },
    });

  const title = (
    <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }} id="passkeys-title">
      {t("auth:passkey.card.title")}
    </Typography.Title>
  );
  if (list.isError)
    return (
      <Card className="narrow-card" title={title}>
        <LoadError query={list} compact />
      </Card>
    );

  return (
    <Card className="narrow-card" title={title} data-testid="passkeys-card">
      <Typography.Paragraph>{t("auth:passkey.card.intro")}</Typography.Paragraph>
      {!list.data ? (
        <Spin />
      ) : list.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("auth:passkey.card.none")} />
      ) : (
        <List
          aria-labelledby="passkeys-title"
          data-testid="passkey-list"
          dataSource={list.data}
          renderItem={(passkey) => (
            <List.Item
              data-testid="passkey-item"
              actions={[
                <Button key="rename" size="small" onClick={() => open({ mode: "rename", passkey })}>
                  {t("auth:passkey.rename")}
                  <span className="visually-hidden"> {passkey.name}</span>
                </Button>,
                <Button key="remove" size="small" danger onClick={() => remove(passkey)}>
                  {t("auth:passkey.remove")}
                  <span className="visually-hidden"> {passkey.name}</span>
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={passkey.name}
                description={
                  <Space wrap size={4}>
                    <span>{t("auth:passkey.created", { date: formatDate(passkey.createdAt, lang) })}</span>
                    <span>·</span>
                    <span data-testid="passkey-last-used">
                      {passkey.lastUsedAt
                        ? t("auth:passkey.lastUsed", { date: formatDate(passkey.lastUsedAt, lang) })
                        : t("auth:passkey.neverUsed")}
                    </span>
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      )}
      {supported ? (
        <Button type="primary" style={{ marginTop: 12 }} onClick={() => open({ mode: "add" })}>
          {t("auth:passkey.card.add")}
        </Button>
      ) : (
        <Typography.Paragraph type="secondary">{t("auth:passkey.unsupported")}</Typography.Paragraph>
      )}

      <Modal
        open={editing !== null}
        onCancel={() => setEditing(null)}
        title={t(editing?.mode === "rename" ? "auth:passkey.renameTitle" : "auth:passkey.addTitle")}
        okText={t(editing?.mode === "rename" ? "auth:passkey.save" : "auth:passkey.create")}
        cancelText={t("auth:passkey.cancel")}
        onOk={() => form.submit()}
        confirmLoading={saving}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" requiredMark={false} onFinish={save} name="passkey-name">
          {editing?.mode === "add" && (
            <Typography.Paragraph>{t("auth:passkey.addHint")}</Typography.Paragraph>
          )}
          <PasskeyNameField placeholder={t("auth:passkey.namePlaceholder")} />
        </Form>
      </Modal>
    </Card>
  );
}
