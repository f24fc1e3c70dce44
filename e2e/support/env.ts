import { tmpdir } from "node:os";
import path from "node:path";

export const ADMIN = { email: "admin@e2e.test", password: "Admin-e2e-pass!" };
export const MAIL_DIR = path.join(tmpdir(), "parlons-e2e-mail");
