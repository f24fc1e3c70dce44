import { describe, expect, it } from "vitest";
import { insertFooter, withUnsubscribeLink } from "./preferences-service";

describe("the unsubscribe footer of a campaign mail", () => {
  it("goes inside a whole HTML document, before </body>, never after </html>", () => {
    const mail = {
      subject: "Nouvelles",
      text: "Bonjour",
      html: "<!doctype html><html><head></head><body><p>Bonjour</p></body></html>",
    };
    const out = withUnsubscribeLink(mail, "https://parlons.test/unsubscribe?t=a&b", "FR", "news");
    expect(out.html).toMatch(
      /<p>Bonjour<\/p><hr><p [^>]*><a href="https:\/\/parlons.test\/unsubscribe\?t=a&amp;b"/,
    );
    expect(out.html.endsWith("</body></html>")).toBe(true);
    expect(out.text).toBe(
      "Bonjour\n\n--\nSe désabonner des nouvelles de Parlons: https://parlons.test/unsubscribe?t=a&b",
    );
  });

  it("goes before </html> when there is no body, and at the end of a fragment", () => {
    expect(insertFooter("<html><p>x</p></HTML >", "<hr>")).toBe("<html><p>x</p><hr></HTML >");
    expect(insertFooter("<p>x</p>", "<hr>")).toBe("<p>x</p><hr>");
    expect(insertFooter("<BODY><p>x</p></Body>", "<hr>")).toBe("<BODY><p>x</p><hr></Body>");
  });
});
