import type { Mailer, MailMessage } from "../../src/integrations/mail/mailer";

/** A Mailer that keeps messages in memory, for flows whose subject is not mail delivery itself. */
export function createMailbox(kind: Mailer["kind"] = "outbox") {
  const messages: MailMessage[] = [];
  const mailer: Mailer & {
    messages: MailMessage[];
    last(to?: string): MailMessage | undefined;
    linkIn(m: MailMessage | undefined, pattern: RegExp): string;
  } = {
    kind,
    messages,
    async send(message) {
      messages.push(message);
      return { messageId: `<${messages.length}@test>` };
    },
    close() {},
    last(to) {
      return [...messages].reverse().find((m) => !to || m.to === to);
    },
    linkIn(m, pattern) {
      const match = m?.text.match(pattern);
      if (!match?.[1]) throw new Error(`no link matching ${pattern} in ${m?.text}`);
      return match[1];
    },
  };
  return mailer;
}
export type Mailbox = ReturnType<typeof createMailbox>;
