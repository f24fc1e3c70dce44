import { MAIL_VARIABLES } from "@parlons/contract";
import { Typography } from "antd";
import { useTranslation } from "react-i18next";

/** The variables a template may use, each copyable, with what it becomes. */
export function VariablesHelp() {
  const { t } = useTranslation();
  return (
    <div className="mail-variables" data-testid="mail-variables">
      <Typography.Text strong>{t("mail:templates.variables.title")}</Typography.Text>{" "}
      <Typography.Text type="secondary">{t("mail:templates.variables.hint")}</Typography.Text>
      <ul>
        {MAIL_VARIABLES.map((name) => (
          <li key={name}>
            <Typography.Text code copyable={{ text: `{{${name}}}` }}>{`{{${name}}}`}</Typography.Text>{" "}
            <Typography.Text type="secondary">{t(`mail:templates.variables.${name}`)}</Typography.Text>
          </li>
        ))}
      </ul>
    </div>
  );
}
