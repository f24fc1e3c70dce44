import { genderLabel } from "@parlons/contract";
import { App, Button, Card, Descriptions, Form, Input, Select, Space, Typography } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { formatDate } from "@/lib/format";
import { speakOptions } from "@/lib/languages";
import { pagePath } from "@/lib/paths";
import { loadCurrentUser, useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { type ProfileValues, updateProfile } from "../api/update-profile";

const GENDERS = ["m", "f", "other"] as const;
// the cards below the form come in a chunk of their own, after it (the page's weight has a ceiling)
const AccountCards = lazy(() => import("../components/account-cards"));

/** `/profile`: shows and edits full name, gender and preferred language. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLang();
  const to = useLocalePath();
  const { user } = useSession();
  const [form] = Form.useForm<ProfileValues>();
  const [pending, setPending] = useState(false);
  usePageTitle(t("app:profile.title"));
  if (!user) return null;

  const submit = async (values: ProfileValues) => {
    setPending(true);
    try {
      await updateProfile(user.id, { ...values, full_name: values.full_name.trim() });
      await loadCurrentUser();
      message.success(t("app:profile.saved"));
    } catch (error) {
      if (!applyFieldErrors(form, error, ["full_name", "gender", "speak"])) message.error(errorText(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Card className="narrow-card">
        <Typography.Title level={1} className="page-title">
          {t("app:profile.title")}
        </Typography.Title>
        <Descriptions column={1} size="small" style={{ marginBottom: 24 }}>
          <Descriptions.Item label={t("app:profile.email")}>{user.email}</Descriptions.Item>
          <Descriptions.Item label={t("app:role")}>
            {t(`app:roles.${user.role}`, { defaultValue: user.role })}
          </Descriptions.Item>
          <Descriptions.Item label={t("app:profile.memberSince")}>
            {formatDate(user.created_at, lang)}
          </Descriptions.Item>
        </Descriptions>
        <Form<ProfileValues>
          form={form}
          name="profile"
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          initialValues={{ full_name: user.full_name, gender: user.gender, speak: user.speak }}
        >
          <Form.Item
            label={t("app:profile.fullName")}
            name="full_name"
            rules={[
              { required: true, whitespace: true, max: 120, message: t("app:profile.fullNameRequired") },
            ]}
          >
            <Input autoComplete="name" />
          </Form.Item>
          <Form.Item label={t("app:profile.gender")} name="gender">
            <Select
              allowClear
              options={GENDERS.map((g) => ({ value: g, label: t(`app:gender.${genderLabel(g)}`) }))}
            />
          </Form.Item>
          <Form.Item label={t("app:profile.speak")} name="speak" rules={[{ required: true }]}>
            <Select options={speakOptions()} />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" loading={pending} data-testid="profile-save">
              {t("app:profile.save")}
            </Button>
            <ButtonLink to={to(pagePath("changePassword"))}>{t("app:profile.changePassword")}</ButtonLink>
            <ButtonLink to={to(pagePath("mailPreferences"))} data-testid="profile-mail">
              {t("habit:prefs.open")}
            </ButtonLink>
          </Space>
        </Form>
      </Card>
      <Suspense fallback={null}>
        <AccountCards />
      </Suspense>
    </>
  );
}
