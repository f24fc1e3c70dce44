import type { HandsFreeItem } from "@parlons/contract";
import { Alert, Button, Checkbox, List, Result, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { GradesState } from "../hooks/use-hands-free-grades";

/**
 * The end of a hands-free session: each line with its "missed it" mark (one tap), then one button
 * sends the grades: Again for the lines marked, Good for the others ("all good" when none is).
 */
export function HandsFreeEnd(props: {
  items: HandsFreeItem[];
  missed: ReadonlySet<string>;
  onToggle: (cardId: string) => void;
  onSend: () => void;
  sending: boolean;
  /** What became of the grades sent (null before). */
  state: GradesState | null;
  onAgain: () => void;
}) {
  const { t } = useTranslation();
  const { items, missed } = props;
  // kept on the device (no connection), or taken by the server
  if (props.state === "queued" || props.state === "sent") {
    const queued = props.state === "queued";
    return (
      <Result
        status={queued ? "info" : "success"}
        title={t(queued ? "practice:handsFree.queued" : "practice:handsFree.sent", { count: items.length })}
        data-testid={queued ? "hands-free-queued" : "hands-free-sent"}
        extra={<Button onClick={props.onAgain}>{t("practice:handsFree.again")}</Button>}
      />
    );
  }
  return (
    <div className="hands-free-end" data-testid="hands-free-end">
      <Typography.Title level={3}>{t("practice:handsFree.endTitle")}</Typography.Title>
      <Typography.Paragraph>{t("practice:handsFree.endHint")}</Typography.Paragraph>
      <List
        dataSource={items}
        rowKey={(item) => item.card.id}
        renderItem={(item, i) => (
          <List.Item>
            <Checkbox
              checked={missed.has(item.card.id)}
              onChange={() => props.onToggle(item.card.id)}
              data-testid={`hands-free-missed-${i}`}
            >
              <span lang={item.language}>{item.cue.text}</span>
              <span className="hands-free-end__missed"> · {t("practice:handsFree.missed")}</span>
            </Checkbox>
          </List.Item>
        )}
      />
      {props.state === "refused" && (
        <Alert type="error" showIcon title={t("practice:handsFree.sendFailed")} />
      )}
      <Space wrap>
        <Button type="primary" loading={props.sending} onClick={props.onSend} data-testid="hands-free-send">
          {missed.size === 0 ? t("practice:handsFree.allGood") : t("practice:handsFree.send")}
        </Button>
      </Space>
    </div>
  );
}
