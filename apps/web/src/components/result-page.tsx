import type { ReactNode } from "react";
import { PlainButtonLink } from "./plain-button";

/**
 * A page-sized outcome (not found, forbidden, coming soon): a mark, a title, a line and one way
 * on. Plain markup, shaped like antd's Result: it sits on pages that load no antd.
 */
export function ResultPage({
  mark,
  title,
  subtitle,
  action,
  testId,
}: {
  mark: ReactNode;
  title: string;
  subtitle: string;
  action: { to: string; label: string };
  testId: string;
}) {
  return (
    <div className="result" data-testid={testId}>
      <div className="result__code" aria-hidden="true">
        {mark}
      </div>
      <h1 className="result__title">{title}</h1>
      <p className="result__subtitle">{subtitle}</p>
      <PlainButtonLink to={action.to} kind="primary">
        {action.label}
      </PlainButtonLink>
    </div>
  );
}
