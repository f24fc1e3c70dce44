import { FacebookFilled, GithubOutlined, GoogleOutlined } from "@ant-design/icons";
import { Button, Divider, Flex } from "antd";
import { useTranslation } from "react-i18next";
import { useLang } from "@/lib/use-locale";
import { socialStartUrl, useProviders } from "../api/auth-api";

const SOCIAL = [
  { id: "facebook", icon: <FacebookFilled />, label: "auth:social.facebook" },
  { id: "google", icon: <GoogleOutlined />, label: "auth:social.google" },
  { id: "github", icon: <GithubOutlined />, label: "auth:social.github" },
] as const;

/**
 * "Continue with Facebook / Google / GitHub", only for providers the server lists. A click is a
 * full page load of `/api/v1/auth/oauth/{provider}`: the server runs the provider's sign-in and
 * comes back to `/login?provider=&token=` (or `?social_error=`).
 */
export function SocialButtons() {
  const { t } = useTranslation();
  const lang = useLang();
  const { data: providers = [] } = useProviders();
  const shown = SOCIAL.filter((s) => providers.includes(s.id));
  if (shown.length === 0) return null;
  return (
    <>
      <Flex vertical gap={8}>
        {shown.map((s) => (
          <Button
            key={s.id}
            icon={s.icon}
            block
            data-testid={`social-${s.id}`}
            onClick={() => window.location.assign(socialStartUrl(s.id, lang))}
          >
            {t(s.label)}
          </Button>
        ))}
      </Flex>
      <Divider plain>{t("auth:or")}</Divider>
    </>
  );
}
