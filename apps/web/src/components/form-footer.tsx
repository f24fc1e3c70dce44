import { Alert, Button, Space } from "antd";
import { useTranslation } from "react-i18next";

/**
 * The end of a staff form: the error the server gave (if any), then Save and Cancel.
 * Test ids are `${testId}-error` and `${testId}-submit`.
 */
export function FormFooter(props: {
  error: string | null;
  pending: boolean;
  onCancel: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {props.error && (
        <Alert
          type="error"
          showIcon
          title={props.error}
          style={{ marginBottom: 16 }}
          data-testid={`${props.testId}-error`}
        />
      )}
      <Space>
        <Button
          type="primary"
          htmlType="submit"
          loading={props.pending}
          data-testid={`${props.testId}-submit`}
        >
          {t("common:actions.save")}
        </Button>
        <Button onClick={props.onCancel}>{t("common:actions.cancel")}</Button>
      </Space>
    </>
  );
}
