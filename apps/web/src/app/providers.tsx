import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider, theme } from "antd";
// the ES build: antd/locale/* is CommonJS and drags the CommonJS pickers into the first chunk
import enUS from "antd/es/locale/en_US";
import frFR from "antd/es/locale/fr_FR";
import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { bindFeedback } from "../lib/feedback";
import { queryClient } from "../lib/query-client";

const appTheme = {
  algorithm: theme.defaultAlgorithm,
  token: {
    colorPrimary: "#2f54eb",
    borderRadius: 8,
    // antd's greys fail WCAG AA contrast on our light backgrounds: darker secondary texts
    colorLink: "#1d39c4",
    colorError: "#cf1322",
    colorTextSecondary: "rgba(0, 0, 0, 0.68)",
    colorTextDescription: "rgba(0, 0, 0, 0.66)",
    colorTextTertiary: "rgba(0, 0, 0, 0.64)",
    fontFamily:
      "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    // the preset tags' text shades (x7) are too light on their pale backgrounds for WCAG AA
    Tag: {
      green7: "#236b0b",
      gold7: "#874d00",
      orange7: "#873800",
      red7: "#a8071a",
      colorSuccess: "#236b0b",
      colorWarning: "#874d00",
    },
  },
};

/** Hands antd's contextual message/notification to the API client. */
function FeedbackBridge() {
  const { message, notification } = AntApp.useApp();
  useEffect(() => bindFeedback(message, notification), [message, notification]);
  return null;
}

/** `client`: the server renderer's own, one per page; the browser's shared one otherwise. */
export function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  const { i18n } = useTranslation();
  return (
    <QueryClientProvider client={client}>
      <ConfigProvider locale={i18n.language === "en" ? enUS : frFR} theme={appTheme}>
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
