import { Card, Typography } from "antd";
import type { ReactNode } from "react";

/** Narrow centred card of the standalone auth pages. */
export function AuthCard({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <div className="auth-card">
      <Card>
        <Typography.Title level={1} className="auth-card__title">
          {title}
        </Typography.Title>
        {intro && <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>}
        {children}
      </Card>
    </div>
  );
}
