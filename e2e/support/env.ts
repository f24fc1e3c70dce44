import { tmpdir } from "node:os";
import path from "node:path";

export const ADMIN = { email: "admin@e2e.test", password: "Admin-e2e-pass!" };
/** Where the SMTP sink writes mails; E2E_MAIL_DIR lets parallel runs keep apart. */
export const MAIL_DIR = process.env.E2E_MAIL_DIR ?? path.join(tmpdir(), "parlons-e2e-mail");
