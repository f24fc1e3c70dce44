import { Alert, Button, Space } from "antd";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "./button-link";

/**
 * The end of a staff form: the error the server gave (if any), then Save and Cancel.
 * Test ids are `${testId}-error` and `${testId}-submit` unless `ids` names others.
 */
export function FormFooter(props: {
  error: string | null;
  pending: boolean;
  testId: string;
  /** Cancel as a button (`onCancel`) or as a link to a page (`cancelTo`). */
  onCancel?: () => void;
  cancelTo?: string;
  submitLabel?: string;
  cancelLabel?: string;
  ids?: { error?: string; submit?: string };
}) {
  const { t } = useTranslation();
  const cancelLabel = props.cancelLabel ?? t("common:actions.cancel");
  return (
    <>
      {props.error && (
        <Alert
          type="error"
          showIcon
          title={props.error}
          style={{ marginBottom: 16 }}
          data-testid={props.ids?.error ?? `${props.testId}-error`}
        />
      )}
      <Space>
        <Button
          type="primary"
          htmlType="submit"
          loading={props.pending}
          data-testid={props.ids?.submit ?? `${props.testId}-submit`}
        >
          {props.submitLabel ?? t("common:actions.save")}
        </Button>
        {props.cancelTo !== undefined ? (
          <ButtonLink to={props.cancelTo}>{cancelLabel}</ButtonLink>
        ) : (
          <Button onClick={props.onCancel}>{cancelLabel}</Button>
        )}
      </Space>
    </>
  );
}
