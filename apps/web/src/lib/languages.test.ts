import { LOCALES, SPEAK_CODES } from "@parlons/contract";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { speakName, speakOptions, toSpeak } from "./languages";

const markup = (options: ReturnType<typeof speakOptions>) =>
  options.map((o) => renderToStaticMarkup(o.label as ReactElement));

describe("language choices", () => {
  it("offer every language of LOCALES, in order, each named in its own language", () => {
    const options = speakOptions();
    expect(options.map((o) => o.value)).toEqual(SPEAK_CODES);
    expect(options).toHaveLength(LOCALES.length);
    expect(markup(options)).toEqual([
      '<span lang="fr">Français</span>',
      '<span lang="en">English</span>',
      '<span lang="es">Español</span>',
    ]);
  });

  it("follow the list: a language added to it shows up, named in itself", () => {
    const options = speakOptions([...LOCALES, "de"]);
    expect(options.map((o) => o.value)).toEqual([...SPEAK_CODES, "DE"]);
    expect(markup(options).at(-1)).toBe('<span lang="de">Deutsch</span>');
  });

  it("name a stored code in that language and give a new account its page's language", () => {
    expect(speakName("ES")).toBe("Español");
    expect(speakName("FR")).toBe("Français");
    expect(toSpeak("es")).toBe("ES");
  });
});
