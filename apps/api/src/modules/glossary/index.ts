import { defineModule } from "../../lib/module";
import { type DictdShelf, dictdShelf } from "./dictd";
import glossaryRoutes from "./routes";
import type { GlossaryService } from "./service";
import { createGlossaryService } from "./service";
import wordRoutes from "./word-routes";
import type { WordService } from "./words";
import { createWordService } from "./words";

declare module "../../lib/module" {
  interface AppServices {
    glossary: GlossaryService;
    dictionaries: DictdShelf;
    words: WordService;
  }
}

/**
 * Words learners tap in a transcript: each course's glossary (staff write it, import it, accept
 * suggestions), the dictd dictionaries the operator installed, and the learner's word cards.
 */
export default defineModule({
  name: "glossary",
  needs: ["review", "wordCards", "lessons", "courses"],
  provides: ["glossary", "dictionaries", "words"],
  routesRead: ["principals"],
  build: ({ db, config }, { review, wordCards, lessons, courses }) => {
    const glossary = createGlossaryService({ db });
    const dictionaries = dictdShelf(config.dictionaryDir);
    const words = createWordService({ glossary, review, wordCards, lessons, courses, dictionaries });
    return { glossary, dictionaries, words };
  },
  routes: async (api) => {
    await api.register(glossaryRoutes);
    await api.register(wordRoutes);
  },
});
