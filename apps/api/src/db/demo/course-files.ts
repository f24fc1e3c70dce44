import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The demo courses' committed files (apps/api/seed-media/demo): `<slug>.json` is the script (each
 * lesson's lines, who says them and their translations), written by hand; `<slug>/<file>.mp3`,
 * `<slug>/<file>.vtt` (the aligner's output on that audio) and `<slug>/audio.json` (each file's
 * duration) are made from it by scripts/demo-audio.mjs.
 */
interface DemoLine {
  speaker: number;
  text: string;
  /** translations; the course's own language has none (the line is its text) */
  fr?: string;
  en?: string;
  es?: string;
}

export interface DemoLessonScript {
  file: string;
  free: boolean;
  voices: { voice: string; speed: number }[];
  title_fr: string;
  title_en: string;
  title_es: string;
  text_fr: string;
  text_en: string;
  text_es: string;
  lines: DemoLine[];
}

export interface DemoCourseScript {
  slug: string;
  target_language: "fr" | "en";
  level: "A1" | "A2" | "B1" | "B2" | "C1" | "C2";
  /** the cover's file in seed-media */
  cover: string;
  title_fr: string;
  title_en: string;
  title_es: string;
  description_fr: string;
  description_en: string;
  description_es: string;
  lessons: DemoLessonScript[];
}

export interface DemoCue extends DemoLine {
  start: number;
  end: number;
}

interface DemoLesson extends DemoLessonScript {
  /** the audio's length */
  seconds: number;
  cues: DemoCue[];
}

export interface DemoCourse extends Omit<DemoCourseScript, "lessons"> {
  lessons: DemoLesson[];
}

const TIMES = /^(\d{2}):(\d{2}):(\d{2}\.\d{3}) --> (\d{2}):(\d{2}):(\d{2}\.\d{3})$/;

/** The cues of a WebVTT file as the aligner's CLI writes it: a number, the times, one line of text. */
function parseDemoVtt(vtt: string): { start: number; end: number; text: string }[] {
  const seconds = (h = "0", m = "0", s = "0") => Number(h) * 3600 + Number(m) * 60 + Number(s);
  return vtt
    .split(/\n{2,}/)
    .slice(1)
    .flatMap((block) => {
      const lines = block.trim().split("\n");
      const times = lines.findIndex((l) => TIMES.test(l));
      const m = times === -1 ? null : TIMES.exec(lines[times] as string);
      if (!m) return [];
      return [
        {
          start: seconds(m[1], m[2], m[3]),
          end: seconds(m[4], m[5], m[6]),
          text: lines.slice(times + 1).join(" "),
        },
      ];
    });
}

export const demoCoverKey = (course: Pick<DemoCourseScript, "cover">) => `images/demo-${course.cover}`;
export const demoAudioKey = (
  course: Pick<DemoCourseScript, "slug">,
  lesson: Pick<DemoLessonScript, "file">,
) => `audio/demo-${course.slug}-${lesson.file}.mp3`;

/**
 * A demo course with each lesson's audio length and aligned lines. Throws when the files disagree
 * (a script edited without running scripts/demo-audio.mjs again): a cue per line, the same text.
 */
export async function readDemoCourse(dir: string, slug: string): Promise<DemoCourse> {
  const demo = path.join(dir, "demo");
  const script = JSON.parse(await readFile(path.join(demo, `${slug}.json`), "utf8")) as DemoCourseScript;
  const audio = JSON.parse(await readFile(path.join(demo, slug, "audio.json"), "utf8")) as Record<
    string,
    { seconds: number }
  >;
  const lessons = await Promise.all(
    script.lessons.map(async (lesson) => {
      const cues = parseDemoVtt(await readFile(path.join(demo, slug, `${lesson.file}.vtt`), "utf8"));
      const seconds = audio[lesson.file]?.seconds;
      if (
        !seconds ||
        cues.length !== lesson.lines.length ||
        cues.some((c, i) => c.text !== lesson.lines[i]?.text)
      )
        throw new Error(`demo ${slug}/${lesson.file}: its audio and times are not those of its script`);
      return { ...lesson, seconds, cues: cues.map((c, i) => ({ ...lesson.lines[i], ...c }) as DemoCue) };
    }),
  );
  return { ...script, lessons };
}
