/** The namespaces of a podcast feed: Apple's (iTunes tags) and Podcasting 2.0's. */
export const ITUNES_NS = "http://www.itunes.com/dtds/podcast-1.0.dtd";
export const PODCAST_NS = "https://podcastindex.org/namespace/1.0";

/** One episode: a lesson that opens for the feed's learner. */
export interface FeedEpisode {
  guid: string;
  title: string;
  description: string;
  link: string;
  published: Date;
  audio: { url: string; length: number; type: string; duration: number | null };
  /** a lesson's lines (the daily session has none) */
  transcript?: { url: string; language: string };
  chapters?: { url: string };
  season: number;
  episode: number;
}

export interface FeedChannel {
  title: string;
  description: string;
  link: string;
  language: string;
  author: string;
  image: string;
  built: Date;
  episodes: FeedEpisode[];
}

// XML 1.0 forbids most control characters even escaped: they are dropped
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML refuses
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
/** Text or an attribute's value, escaped for XML. */
const xmlText = (value: string) => value.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const element = (name: string, text: string) => `<${name}>${xmlText(text)}</${name}>`;
const empty = (name: string, attrs: Record<string, string | number>) =>
  `<${name} ${Object.entries(attrs)
    .map(([k, v]) => `${k}="${xmlText(String(v))}"`)
    .join(" ")}/>`;

function item(e: FeedEpisode): string {
  return [
    "<item>",
    element("title", e.title),
    element("description", e.description),
    element("link", e.link),
    `<guid isPermaLink="false">${xmlText(e.guid)}</guid>`,
    element("pubDate", e.published.toUTCString()),
    empty("enclosure", { url: e.audio.url, length: e.audio.length, type: e.audio.type }),
    ...(e.audio.duration !== null ? [element("itunes:duration", String(e.audio.duration))] : []),
    element("itunes:title", e.title),
    element("itunes:season", String(e.season)),
    element("itunes:episode", String(e.episode)),
    element("itunes:episodeType", "full"),
    element("itunes:explicit", "false"),
    ...(e.transcript
      ? [
          empty("podcast:transcript", {
            url: e.transcript.url,
            type: "text/vtt",
            language: e.transcript.language,
            rel: "captions",
          }),
        ]
      : []),
    ...(e.chapters
      ? [empty("podcast:chapters", { url: e.chapters.url, type: "application/json+chapters" })]
      : []),
    "</item>",
  ].join("\n");
}

/**
 * A private podcast feed: RSS 2.0 (title, link and description on the channel; on each item a
 * title, a guid that is not a link, the enclosure with its length in bytes and its type), Apple's
 * tags (image, category, explicit, author, duration) and Podcasting 2.0's (transcript in WebVTT,
 * chapters as JSON; `locked` and `block`, since a learner's feed belongs in no directory).
 */
export function feedXml(c: FeedChannel): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss version="2.0" xmlns:itunes="${ITUNES_NS}" xmlns:podcast="${PODCAST_NS}">`,
    "<channel>",
    element("title", c.title),
    element("link", c.link),
    element("description", c.description),
    element("language", c.language),
    element("generator", "Parlons"),
    element("lastBuildDate", c.built.toUTCString()),
    element("ttl", "60"),
    `<image>${element("url", c.image)}${element("title", c.title)}${element("link", c.link)}</image>`,
    empty("itunes:image", { href: c.image }),
    `<itunes:category text="Education">${empty("itunes:category", { text: "Language Learning" })}</itunes:category>`,
    element("itunes:explicit", "false"),
    element("itunes:author", c.author),
    element("itunes:type", "episodic"),
    element("itunes:block", "Yes"),
    element("podcast:locked", "yes"),
    element("podcast:block", "yes"),
    ...c.episodes.map(item),
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}

/** Podcasting 2.0's JSON chapters (version 1.2.0): one chapter per line of the lesson. */
export function chaptersJson(title: string, lines: readonly { start: number; end: number; text: string }[]) {
  return {
    version: "1.2.0",
    title,
    chapters: lines.map((line) => ({ startTime: line.start, endTime: line.end, title: line.text })),
  };
}
