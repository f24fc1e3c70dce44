import type { Catalogue } from "../fr";
import { legal } from "./legal";
import { mail } from "./mail";
import { words } from "./words";

export const en: Catalogue = { words, mail, legal };
