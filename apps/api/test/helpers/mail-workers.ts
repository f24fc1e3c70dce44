import { startOutboxWorker } from "../../src/jobs/outbox-worker";
import type { TestContext } from "./build";

/** The transactional outbox worker of a test app, without its timer: call runOnce. */
export const outboxWorkerOf = (t: TestContext) =>
  startOutboxWorker({
    outbox: t.app.deps.services.mailOutbox,
    mailer: t.mailbox,
    log: t.app.log,
    schedule: false,
  });
