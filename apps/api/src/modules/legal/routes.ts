import { type LegalPage, legalPageParams, legalPageQuery, legalPageResponse } from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { access } from "../../plugins/access";
import { fillLegalText } from "./fill";
import { LEGAL_TEXTS } from "./texts";

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * `/v1/legal/{page}`: the legal notice, privacy policy, terms and cookies pages. The texts are the
 * defaults of ./texts with the company's details (configuration `legal.company`: company_name,
 * siret, address, host_name... and the settings' contact e-mail), unless staff replaced a text
 * (configuration `legal.<page>.<lang>`), both edited on the staff's Configuration page.
 */
export default async function legalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { configs, settings } = app.deps.services;

  app.get(
    "/v1/legal/:page",
    {
      config: { access: access.public },
      schema: {
        tags: ["legal"],
        summary: "A legal page (legal notice, privacy policy, terms, cookies) in French or English",
        params: legalPageParams,
        querystring: legalPageQuery,
        response: { 200: legalPageResponse },
      },
    },
    async (request) => {
      const { page } = request.params;
      const { lang } = request.query;
      const [override, company, setting] = await Promise.all([
        configs.value(`legal.${page}.${lang}`),
        configs.value("legal.company"),
        settings.get(),
      ]);
      const custom = override && typeof override === "object" ? (override as Record<string, unknown>) : null;
      const base = LEGAL_TEXTS[page][lang];
      const details: Record<string, unknown> = company && typeof company === "object" ? { ...company } : {};
      const values: Record<string, string | undefined> = {
        // the seller of the receipts (settings) stands in until the legal details are given
        company_name: setting.seller.name,
        address: setting.seller.address,
        ...Object.fromEntries(Object.entries(details).map(([key, value]) => [key, text(value)])),
        email: setting.contact_email,
      };
      const filled = fillLegalText(text(custom?.body) ?? base.body, values, lang);
      const result: LegalPage = {
        slug: page,
        lang,
        title: text(custom?.title) ?? base.title,
        body: filled.body,
        customized: Boolean(text(custom?.body)),
        missing: filled.missing,
      };
      return { data: { page: result } };
    },
  );
}
