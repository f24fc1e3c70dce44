import { LOCALES } from "@parlons/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const legal = (page: string, lang = "fr") =>
  t.request({ method: "GET", url: `/api/v1/legal/${page}?lang=${lang}` });

describe("legal pages", () => {
  it("serves every page in every language, the company's details filled in from the configuration", async () => {
    const admin = await t.adminToken();
    const company = await t.request({
      method: "POST",
      url: "/api/v1/configs",
      token: admin,
      payload: {
        key: "legal.company",
        value: { company_name: "Parlons SAS", siret: "123 456 789 00012", host_name: "OVH SAS" },
        description: "Company details of the legal pages",
      },
    });
    expect(company.statusCode, company.body).toBe(201);
    for (const page of ["legal-notice", "privacy", "terms", "cookies"]) {
      for (const lang of LOCALES) {
        const res = await legal(page, lang);
        expect(res.statusCode).toBe(200);
        expect(res.json().data.page).toMatchObject({ slug: page, lang, customized: false });
        expect(res.json().data.page.body).not.toMatch(/\{\{/);
      }
    }
    const notice = (await legal("legal-notice")).json().data.page;
    expect(notice.title).toBe("Mentions légales");
    expect(notice.body).toContain("Parlons SAS");
    expect(notice.body).toContain("123 456 789 00012");
    expect(notice.body).toContain("OVH SAS");
    expect((await legal("legal-notice", "es")).json().data.page.title).toBe("Aviso legal");
    // a detail not given yet never shows as a blank: its sentence is left out, and the page names it for staff
    expect(notice.body).not.toMatch(/\[|\{\{/);
    expect(notice.missing).toEqual(expect.arrayContaining(["legal_form", "capital", "director", "mediator"]));
    expect(notice.missing).not.toContain("company_name");
    expect(notice.body).not.toContain("Directeur de la publication");
    expect(notice.body).toContain("- SIRET : 123 456 789 00012");
    expect(notice.body).toMatch(/Contact : \S+@/);
  });

  it("shows the text staff wrote instead of the default, and 400 for an unknown page", async () => {
    const admin = await t.adminToken();
    await t.request({
      method: "POST",
      url: "/api/v1/configs",
      token: admin,
      payload: {
        key: "legal.cookies.en",
        value: { title: "Our cookies", body: "## None\nWe use {{company_name}}'s essential cookies only." },
        description: "",
      },
    });
    const page = (await legal("cookies", "en")).json().data.page;
    expect(page).toMatchObject({ title: "Our cookies", customized: true });
    expect(page.body).toContain("## None");
    expect((await legal("cookies", "fr")).json().data.page.customized).toBe(false);
    expect((await legal("nope")).statusCode).toBe(400);
  });
});
