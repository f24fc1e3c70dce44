import { describe, expect, it } from "vitest";
import { renderMail, unknownVariables, variablesIn } from "./mail";
import { campaignSendBody, campaignTestBody, mailAudience } from "./mail-campaigns";
import { emailTemplateBody } from "./mail-templates";

describe("template variables", () => {
  it("finds placeholders, spaces allowed, and reports the unknown ones", () => {
    expect(variablesIn("Hi {{ full_name }} {{email}} {{full_name}}")).toEqual(["full_name", "email"]);
    expect(unknownVariables("{{full_name}} {{prenom}} {{ }} {{a b}}")).toEqual([
      "{{prenom}}",
      "{{}}",
      "{{a b}}",
    ]);
    expect(unknownVariables("no variable, {single} braces")).toEqual([]);
  });

  it("the template schema refuses unknown variables field by field, and transactional slugs without a link", () => {
    const base = {
      name: "N",
      slug: "news",
      subject_fr: "S {{full_name}}",
      subject_en: "S",
      body_fr: "B {{site_url}}",
      body_en: "B {{nope}}",
    };
    const result = emailTemplateBody.safeParse(base);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["body_en"]);
    expect(emailTemplateBody.safeParse({ ...base, body_en: "ok" }).data?.active).toBe(true);
    const activation = emailTemplateBody.safeParse({
      ...base,
      slug: "activation",
      body_en: "{{action_url}}",
    });
    expect(activation.error?.issues.map((i) => i.path.join("."))).toEqual(["body_fr"]);
  });

  it("a send names a campaign, or a template, or texts, with an audience", () => {
    const id = "00000000-0000-4000-8000-000000000000";
    expect(campaignSendBody.safeParse({ campaign_id: id }).success).toBe(true);
    expect(campaignSendBody.safeParse({ template_id: id, audience: {} }).success).toBe(true);
    expect(campaignSendBody.safeParse({ template_id: id }).success).toBe(false);
    expect(campaignSendBody.safeParse({ campaign_id: id, template_id: id }).success).toBe(false);
    expect(campaignSendBody.safeParse({ subject_fr: "a", audience: {} }).success).toBe(false);
  });
});

describe("audience", () => {
  const fieldsOf = (value: unknown) => {
    const result = mailAudience.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("takes a course and a number of inactive days, combinable with the other filters", () => {
    const audience = {
      role: "CUSTOMER",
      plan: "premium",
      speak: "EN",
      course_id: "00000000-0000-4000-8000-000000000001",
      inactive_days: 30,
    };
    expect(mailAudience.parse(audience)).toEqual(audience);
    expect(mailAudience.parse({ inactive_days: 1 })).toEqual({ inactive_days: 1 });
    expect(mailAudience.parse({ inactive_days: 365 })).toEqual({ inactive_days: 365 });
  });

  it("refuses a course that is not an id and days outside 1–365, with a message per field", () => {
    expect(fieldsOf({ course_id: "french-a1" })).toEqual(["course_id: Choose a course from the list"]);
    expect(fieldsOf({ inactive_days: 0 })).toEqual(["inactive_days: At least 1 day"]);
    expect(fieldsOf({ inactive_days: 366 })).toEqual(["inactive_days: At most 365 days"]);
    expect(fieldsOf({ inactive_days: 2.5 })).toEqual(["inactive_days: Give a whole number of days"]);
    expect(fieldsOf({ inactive_days: "30" })).toEqual(["inactive_days: Give a number of days"]);
    expect(fieldsOf({ inactive: 30 })).toHaveLength(1);
  });
});

describe("test send", () => {
  const texts = { subject_fr: "S", subject_en: "S", body_fr: "B", body_en: "B" };
  const paths = (value: unknown) => {
    const result = campaignTestBody.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => i.path.join("."));
  };

  it("names a campaign, a template or the four texts, and takes no audience", () => {
    expect(paths({ campaign_id: "00000000-0000-4000-8000-000000000001" })).toEqual([]);
    expect(paths({ template_id: "00000000-0000-4000-8000-000000000001" })).toEqual([]);
    expect(paths(texts)).toEqual([]);
    expect(paths({ ...texts, campaign_id: "00000000-0000-4000-8000-000000000001" }).sort()).toEqual([
      "body_en",
      "body_fr",
      "subject_en",
      "subject_fr",
    ]);
    expect(paths({ subject_fr: "S" })).toEqual(["subject_en", "body_fr", "body_en"]);
    expect(paths({ ...texts, body_en: "{{nope}}" })).toEqual(["body_en"]);
    expect(paths({ ...texts, audience: {} })).toEqual([""]);
  });
});

describe("renderMail", () => {
  it("keeps the lines of a value of several lines (a receipt's number, date and amount) apart in HTML", () => {
    const mail = renderMail(
      { subject: "Reçu", body: "Bonjour,\n\n{{details}}" },
      { details: "Numéro : R-2026-0001\nDate du paiement : 26 novembre 2026\nMontant : 9,99 €" },
    );
    expect(mail.html).toContain(
      "<p>Numéro : R-2026-0001<br>Date du paiement : 26 novembre 2026<br>Montant : 9,99 €</p>",
    );
    expect(mail.text).toContain("Numéro : R-2026-0001\nDate du paiement");
  });

  it("escapes values in HTML, keeps them raw in text, links URLs of the template and link variables only", () => {
    const mail = renderMail(
      {
        subject: "Hi {{full_name}}",
        body: "Hello {{full_name}} & co\nline 2\n\nSee https://example.com/a?b=1&c=2. Or {{site_url}}",
      },
      { full_name: '<img src=x onerror="alert(1)"> http://evil.test', site_url: "https://parlons.test/en" },
    );
    expect(mail.subject).toBe('Hi <img src=x onerror="alert(1)"> http://evil.test');
    expect(mail.text).toContain('Hello <img src=x onerror="alert(1)"> http://evil.test & co\nline 2');
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain(
      "Hello &lt;img src=x onerror=&quot;alert(1)&quot;&gt; http://evil.test &amp; co<br>line 2</p>",
    );
    expect(mail.html).not.toContain('href="http://evil.test"');
    expect(mail.html).toContain('<a href="https://example.com/a?b=1&amp;c=2" style="color:#1d4ed8">');
    expect(mail.html).toContain(
      '<a href="https://parlons.test/en" style="color:#1d4ed8">https://parlons.test/en</a>',
    );
  });

  it("keeps line breaks out of the subject and renders unknown variables as nothing", () => {
    expect(
      renderMail({ subject: "A {{full_name}}", body: "{{x}}!" }, { full_name: "B\r\nBcc: x@y" }),
    ).toMatchObject({
      subject: "A B Bcc: x@y",
      text: "!",
    });
  });
});
