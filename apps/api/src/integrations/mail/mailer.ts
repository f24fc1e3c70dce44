import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** "smtp" delivers through SMTP_URL; "outbox" writes .eml files (embedded default). */
  kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<{ messageId: string; file?: string }>;
  close(): void;
}

export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: "smtp",
      async send(message) {
        const info = await transport.sendMail({ from: opts.from, ...message });
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "outbox",
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      await mkdir(opts.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
      const file = path.join(opts.outboxDir, name);
      await writeFile(file, info.message as Buffer);
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
