import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../lib/private-files";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the mail (an .ics invitation): text content. */
  attachments?: { filename: string; contentType: string; content: string }[];
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post of a non-transactional mail. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** "smtp" delivers through SMTP_URL; "outbox" writes .eml files (embedded default). */
  kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<{ messageId: string; file?: string }>;
  close(): void;
}

/** Our own headers are ASCII we wrote: sent on one line (a List-Unsubscribe URL is never folded). */
function prepared({ headers, ...message }: MailMessage) {
  if (!headers) return message;
  return {
    ...message,
    headers: Object.fromEntries(Object.entries(headers).map(([k, value]) => [k, { prepared: true, value }])),
  };
}

/**
 * The transport `make` returns, made on the first mail: nodemailer is imported then, not at
 * start-up (~100 ms of CPU per start, and a process may send nothing for a long time).
 */
function lazyTransport<T>(make: (nodemailer: typeof import("nodemailer")["default"]) => Transporter<T>) {
  let made: Transporter<T> | undefined;
  let making: Promise<Transporter<T>> | undefined;
  return {
    get: () =>
      (making ??= import("nodemailer").then((module) => {
        made = make(module.default);
        return made;
      })),
    close: () => made?.close(),
  };
}

export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Mailer {
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    const transport = lazyTransport((nodemailer) => nodemailer.createTransport(smtpUrl));
    return {
      kind: "smtp",
      async send(message) {
        const info = await (await transport.get()).sendMail({ from: opts.from, ...prepared(message) });
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
  );
  return {
    kind: "outbox",
    async send(message) {
      const info = await (await transport.get()).sendMail({ from: opts.from, ...prepared(message) });
      await mkdir(opts.outboxDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
      const file = path.join(opts.outboxDir, name);
      // a reset or activation link inside: readable by Parlons only
      await writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
