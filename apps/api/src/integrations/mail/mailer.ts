import { randomBytes } from "node:crypto";
import { link, mkdir, rm, writeFile } from "node:fs/promises";
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
  /**
   * The same for every attempt of one mail (`campaign-<delivery id>`): it makes the Message-ID, so
   * an attempt after a crash is the same message. The outbox writes it once (an attempt finding
   * its file does nothing); over SMTP a second copy carries the first one's Message-ID.
   */
  key?: string;
}

export interface Mailer {
  /** "smtp" delivers through SMTP_URL; "outbox" writes .eml files (embedded default). */
  kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<{ messageId: string; file?: string }>;
  close(): void;
}

/** Letters, digits and dashes: a key is a file name and the left part of a Message-ID. */
const SAFE_KEY = /^[a-z0-9-]{1,100}$/i;

/** The Message-ID of a mail with a key: `<key@domain of the sender>`. */
function messageIdOf(key: string, from: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`invalid mail key: ${key}`);
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "parlons.local";
  return `<${key}@${domain}>`;
}

/** Our own headers are ASCII we wrote: sent on one line (a List-Unsubscribe URL is never folded). */
function prepared({ headers, key, ...message }: MailMessage, from: string) {
  return {
    ...message,
    ...(key ? { messageId: messageIdOf(key, from) } : {}),
    ...(headers
      ? {
          headers: Object.fromEntries(
            Object.entries(headers).map(([k, value]) => [k, { prepared: true, value }]),
          ),
        }
      : {}),
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
        const info = await (await transport.get()).sendMail({
          from: opts.from,
          ...prepared(message, opts.from),
        });
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
      const info = await (await transport.get()).sendMail({
        from: opts.from,
        ...prepared(message, opts.from),
      });
      await mkdir(opts.outboxDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const stamp = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}`;
      if (!message.key) {
        const file = path.join(opts.outboxDir, `${stamp}.eml`);
        // a reset or activation link inside: readable by Parlons only
        await writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
        return { messageId: info.messageId, file };
      }
      // written whole under a temporary name, then linked to its key's name, which fails when an
      // attempt before a crash got that far: the mail is in the outbox once, whatever happened
      const file = path.join(opts.outboxDir, `${message.key}.eml`);
      const partial = path.join(opts.outboxDir, `.${stamp}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
      try {
        await link(partial, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      } finally {
        await rm(partial, { force: true });
      }
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
