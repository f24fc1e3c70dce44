import { describe, expect, it } from "vitest";
import { campaignSendBody, emailTemplateBody, renderMail, unknownVariables, variablesIn } from "./mail";

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

describe("renderMail", () => {
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
