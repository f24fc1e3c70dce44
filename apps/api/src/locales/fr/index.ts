import { legal } from "./legal";
import { mail } from "./mail";
import { words } from "./words";

/**
 * The server's own texts in French, the reference catalogue: every other language has the same
 * keys and, in each text, the same `{{placeholders}}` (../locales.test.ts). The web app's texts
 * are in apps/web/src/locales; these leave the server without it (PDFs, mails, default pages).
 */
export const fr = { words, mail, legal };

/** The shape every language's catalogue has: French's keys, each a text. */
export type Catalogue = typeof fr;
