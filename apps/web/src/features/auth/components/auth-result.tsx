import { Button, Result, type ResultProps } from "antd";
import { ButtonLink } from "@/components/button-link";

type Action = { label: string } & ({ to: string } | { onClick: () => void; testId?: string });

/** The outcome of an account step (done, link no longer valid, sign-ups closed) and the one way on. */
export function AuthResult(props: {
  status: ResultProps["status"];
  title: string;
  subTitle: string;
  testId: string;
  action: Action;
}) {
  const { action } = props;
  return (
    <Result
      status={props.status}
      title={props.title}
      subTitle={props.subTitle}
      data-testid={props.testId}
      extra={
        "to" in action ? (
          <ButtonLink to={action.to} type="primary">
            {action.label}
          </ButtonLink>
        ) : (
          <Button type="primary" onClick={action.onClick} data-testid={action.testId}>
            {action.label}
          </Button>
        )
      }
    />
  );
}
