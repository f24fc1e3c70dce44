import { App, Button, type ButtonProps } from "antd";
import { type ReactNode, useState } from "react";
import { errorText } from "@/lib/api-error";

/** A button that fetches a file and saves it (a receipt's PDF, an event's .ics); a failure is told in a message. */
export function DownloadButton({
  save,
  children,
  ...button
}: { save: () => Promise<void>; children: ReactNode } & Omit<ButtonProps, "onClick" | "loading">) {
  const { message } = App.useApp();
  const [pending, setPending] = useState(false);
  const download = () => {
    setPending(true);
    save()
      .catch((error: unknown) => void message.error(errorText(error)))
      .finally(() => setPending(false));
  };
  return (
    <Button {...button} onClick={download} loading={pending}>
      {children}
    </Button>
  );
}
