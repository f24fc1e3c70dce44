import { Form, Switch } from "antd";
import type { ReactNode } from "react";

/** A yes/no field of a form: a switch under its label, a hint below. */
export function SwitchItem(props: { name: string; label: ReactNode; extra?: ReactNode; testId?: string }) {
  return (
    <Form.Item name={props.name} label={props.label} extra={props.extra} valuePropName="checked">
      <Switch data-testid={props.testId} />
    </Form.Item>
  );
}
