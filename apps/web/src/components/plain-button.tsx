import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Link } from "react-router";

/**
 * Buttons of the public pages that load no antd (header, home, course page, not-found), drawn by
 * styles.css to look like antd's (`.btn`): the first chunk stays light.
 */
interface Look {
  kind?: "primary" | "default";
  size?: "middle" | "large";
  icon?: ReactNode;
  children?: ReactNode;
}

function className({ kind = "default", size = "middle" }: Look, extra?: string): string {
  return ["btn", kind === "primary" && "btn--primary", size === "large" && "btn--large", extra]
    .filter(Boolean)
    .join(" ");
}

function Content({ icon, children }: Look) {
  return (
    <>
      {icon && (
        <span className="btn__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      {children !== undefined && <span>{children}</span>}
    </>
  );
}

export function PlainButton({
  kind,
  size,
  icon,
  children,
  className: extra,
  type = "button",
  ...props
}: Look & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "children">) {
  return (
    <button {...props} type={type} className={className({ kind, size }, extra)}>
      <Content icon={icon}>{children}</Content>
    </button>
  );
}

/** A link that looks like a button, routed in-app. */
export function PlainButtonLink({
  to,
  kind,
  size,
  icon,
  children,
  ...props
}: Look & { to: string; "data-testid"?: string }) {
  return (
    <Link {...props} to={to} className={className({ kind, size })}>
      <Content icon={icon}>{children}</Content>
    </Link>
  );
}
