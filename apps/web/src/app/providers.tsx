import { QueryClientProvider } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider, theme } from "antd";
import enUS from "antd/locale/en_US";
import frFR from "antd/locale/fr_FR";
import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { bindFeedback } from "../lib/feedback";
import { queryClient } from "../lib/query-client";

const appTheme = {
  algorithm: theme.defaultAlgorithm,
  token: {
    colorPrimary: "#2f54eb",
    borderRadius: 8,
    fontFamily:
      "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
};

/** Hands antd's contextual message/notification to the API client. */
function FeedbackBridge() {
  const { message, notification } = AntApp.useApp();
  useEffect(() => bindFeedback(message, notification), [message, notification]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={i18n.language === "en" ? enUS : frFR} theme={appTheme}>
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
