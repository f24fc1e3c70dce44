import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A local SMTP server that accepts every message and keeps it, for tests that need real SMTP.
 * With `holdAfter: n`, once n messages are kept, the next recipient (RCPT TO) waits until
 * `release()`: a message caught in the middle of its transaction, never accepted, for tests that
 * kill the sender there (`holding` resolves when one waits).
 */
export async function startSmtpSink(opts: { holdAfter?: number } = {}) {
  const received: ReceivedMail[] = [];
  let released = opts.holdAfter === undefined;
  let startHolding: () => void = () => {};
  const holding = new Promise<void>((resolve) => {
    startHolding = resolve;
  });
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = () => {
      released = true;
      resolve();
    };
  });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (released || received.length < (opts.holdAfter ?? 0)) return callback();
      startHolding();
      void gate.then(() => callback());
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  // a sender killed mid-transaction resets its connection: expected here, not a failure
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    holding,
    release,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
