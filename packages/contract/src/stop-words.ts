/**
 * Stop words of the languages Parlons teaches: the grammatical words (articles, pronouns,
 * prepositions, auxiliaries…) a cloze never blanks, since they teach nothing on their own.
 * Lower case, with their accents; a language without a list blanks only by length.
 */
const LISTS: Record<string, string> = {
  fr: `a à ai aie aient aies ait as au aucun aussi autre aux avais avait avant avec avez avoir avons ayant
    c ça car ce ceci cela celle celles celui cependant ces cet cette ceux chaque chez ci comme comment d dans de
    des donc dont du elle elles en encore es est et étaient était étant été être eu eux fait faire fais il ils
    j je jusqu l la là le les leur leurs lui m ma mais me même mes moi mon n ne ni nos notre nous on ont ou où
    par parce pas peu peut plus pour pourquoi qu quand que quel quelle quelles quels qui s sa sans se ses si
    sien son sont sous suis sur t ta te tes toi ton tous tout toute toutes très tu un une vers voici voilà vos
    votre vous y oui non`,
  en: `a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having
    he her here hers herself him himself his how i if in into is it its itself just me more most my myself no
    nor not now of off on once only or other our ours ourselves out over own same she should so some such than
    that the their theirs them themselves then there these they this those through to too under until up very
    was we were what when where which while who whom why will with would you your yours yourself yourselves
    yes don't i'm it's that's`,
  es: `a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el él
    ella ellas ellos en entre era erais eran eras eres es esa esas ese eso esos esta está estaba estado están
    estar estas este esto estos estoy fue fueron fui ha habéis haber había han has hasta hay he la las le les
    lo los más me mi mí mis mucho muy nada ni no nos nosotros o os otra otro para pero poco por porque que qué
    quien quién se sea ser si sí sin sobre somos son soy su sus también tanto te tengo ti tiene tu tú tus un
    una uno unos vosotros y ya yo`,
};

const SETS = new Map(Object.entries(LISTS).map(([lang, words]) => [lang, new Set(words.split(/\s+/))]));

/** Whether `word` (lower case) is a stop word of `language` (ISO 639-1). */
export function isStopWord(word: string, language: string): boolean {
  return SETS.get(language.slice(0, 2).toLowerCase())?.has(word.toLowerCase()) ?? false;
}
