import {
  activeEmailTemplatesResponse,
  campaignCountBody,
  campaignCountResponse,
  campaignCreateBody,
  campaignListQuery,
  campaignListResponse,
  campaignPaginationBody,
  campaignResponse,
  campaignSendBody,
  campaignTestBody,
  campaignTestResponse,
  emailTemplateBody,
  emailTemplateDeleteResponse,
  emailTemplateListQuery,
  emailTemplateListResponse,
  emailTemplateResponse,
  idParams,
  mailPreviewBody,
  mailPreviewResponse,
  mailTextsFor,
  PERMISSIONS,
  renderMail,
  SAMPLE_MAIL_VALUES,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(404, 409);

/** Templates under /v1/email-templates and bulk sends under /v1/send-mail (spec §7), staff with mail.manage. */
export default async function mailRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { mailTemplates, campaigns, audit } = app.deps.services;
  const manage = { access: access.permission(PERMISSIONS.mailManage) };

  // ---------------------------------------------------------------- templates
  {
    const tags = ["mail templates"];
    app.get(
      "/v1/email-templates",
      {
        config: manage,
        schema: {
          tags,
          summary: "Templates, latest change first",
          querystring: emailTemplateListQuery,
          response: { 200: emailTemplateListResponse, ...errors },
        },
      },
      async (request) => ({ data: await mailTemplates.list(request.query) }),
    );

    app.get(
      "/v1/email-templates/active",
      {
        config: manage,
        schema: {
          tags,
          summary: "Active templates, by name (what the send form offers)",
          response: { 200: activeEmailTemplatesResponse, ...errors },
        },
      },
      async () => ({ data: { templates: await mailTemplates.listActive() } }),
    );

    app.post(
      "/v1/email-templates/preview",
      {
        config: manage,
        schema: {
          tags,
          summary: "Renders subjects and bodies with sample values (unknown variables: 422)",
          body: mailPreviewBody,
          response: { 200: mailPreviewResponse, ...errors },
        },
      },
      async (request) => {
        const { subject_fr, subject_en, body_fr, body_en } = request.body;
        const site = app.deps.config.publicUrl;
        const values = (prefix: string) => ({
          ...SAMPLE_MAIL_VALUES,
          site_url: `${site}${prefix}`,
          action_url: `${site}${prefix}/dashboard`,
        });
        // what a Spanish reader gets: the Spanish pair, else English, else French
        const spanish = mailTextsFor(request.body, "es") ?? { subject: "", body: "", lang: "es" as const };
        return {
          data: {
            fr: renderMail({ subject: subject_fr, body: body_fr }, values("")),
            en: renderMail({ subject: subject_en, body: body_en }, values("/en")),
            es: { ...renderMail(spanish, values("/es")), lang: spanish.lang },
          },
        };
      },
    );

    app.get(
      "/v1/email-templates/:id",
      {
        config: manage,
        schema: {
          tags,
          params: idParams,
          response: { 200: emailTemplateResponse, ...errors },
        },
      },
      async (request) => ({
        data: { template: await mailTemplates.read(request.params.id) },
      }),
    );

    app.post(
      "/v1/email-templates",
      {
        config: manage,
        schema: {
          tags,
          summary: "Create a template; a slug in use is 409, an unknown {{variable}} 422",
          body: emailTemplateBody,
          response: { 201: emailTemplateResponse, ...errors },
        },
      },
      async (request, reply) => {
        const template = await mailTemplates.create(request.body);
        return reply.status(201).send({ message: "Template created", data: { template } });
      },
    );

    app.put(
      "/v1/email-templates/:id",
      {
        config: manage,
        schema: {
          tags,
          summary: "Replace a template (campaigns already made from it keep their copy)",
          params: idParams,
          body: emailTemplateBody,
          response: { 200: emailTemplateResponse, ...errors },
        },
      },
      async (request) => {
        const template = await mailTemplates.update(request.params.id, request.body);
        return { message: "Template saved", data: { template } };
      },
    );

    app.delete(
      "/v1/email-templates/:id",
      {
        config: manage,
        schema: {
          tags,
          summary:
            "Delete a template (campaigns keep their copy; a transactional one falls back to the built-in text)",
          params: idParams,
          response: { 200: emailTemplateDeleteResponse, ...errors },
        },
      },
      async (request) => {
        const id = await mailTemplates.remove(request.params.id);
        return { message: "Template deleted", data: { id } };
      },
    );
  }

  // ---------------------------------------------------------------- campaigns
  {
    const tags = ["send mail"];
    app.get(
      "/v1/send-mail",
      {
        config: manage,
        schema: {
          tags,
          summary: "Campaigns, latest first",
          querystring: campaignListQuery,
          response: { 200: campaignListResponse, ...errors },
        },
      },
      async (request) => ({
        data: await campaigns.list({ ...request.query, filters: {} }),
      }),
    );

    app.post(
      "/v1/send-mail/pagination",
      {
        config: manage,
        schema: {
          tags,
          summary: "Campaigns, latest first, filtered by status or subject",
          body: campaignPaginationBody,
          response: { 200: campaignListResponse, ...errors },
        },
      },
      async (request) => ({ data: await campaigns.list(request.body) }),
    );

    app.post(
      "/v1/send-mail/count",
      {
        config: manage,
        schema: {
          tags,
          summary:
            "How many people a send to this audience would mail now (active, not unsubscribed from news): the query the send runs",
          body: campaignCountBody,
          response: { 200: campaignCountResponse, ...errors },
        },
      },
      async (request) => ({
        data: { count: await campaigns.count(request.body.audience) },
      }),
    );

    app.post(
      "/v1/send-mail",
      {
        config: manage,
        schema: {
          tags,
          summary: "Create a DRAFT campaign from a template (its texts are copied) or from texts",
          body: campaignCreateBody,
          response: { 201: campaignResponse, ...errors },
        },
      },
      async (request, reply) => {
        const campaign = await campaigns.create(principalOf(request), request.body);
        await audit.record({
          actor: principalOf(request),
          action: "mail.campaign_create",
          target: { type: "mail_campaign", id: campaign.id },
          after: campaign,
        });
        return reply.status(201).send({ message: "Campaign created", data: { campaign } });
      },
    );

    app.post(
      "/v1/send-mail/send",
      {
        config: manage,
        schema: {
          tags,
          summary:
            "Queue a DRAFT campaign (or create and queue one): one delivery per recipient; 409 when already queued",
          body: campaignSendBody,
          response: { 202: campaignResponse, ...errors },
        },
      },
      async (request, reply) => {
        const campaign = await campaigns.send(principalOf(request), request.body);
        await audit.record({
          actor: principalOf(request),
          action: "mail.campaign_send",
          target: { type: "mail_campaign", id: campaign.id },
          after: campaign,
        });
        return reply
          .status(202)
          .send({ message: `Queued for ${campaign.total} recipients`, data: { campaign } });
      },
    );

    app.post(
      "/v1/send-mail/test",
      {
        config: {
          ...manage,
          // a test goes to the caller's own address: a handful a minute is plenty
          rateLimit: { max: 10, timeWindow: 60_000 },
        },
        schema: {
          tags,
          summary:
            "Send the draft (a campaign, a template or texts) to oneself only, marked as a test; changes no campaign",
          body: campaignTestBody,
          response: { 202: campaignTestResponse, ...errors },
        },
      },
      async (request, reply) => {
        const result = await campaigns.test(principalOf(request), request.body);
        return reply.status(202).send({ message: `Test sent to ${result.to}`, data: result });
      },
    );

    app.get(
      "/v1/send-mail/:id",
      {
        config: manage,
        schema: {
          tags,
          summary: "A campaign with its figures (queued, sent, failed, unsubscribed)",
          params: idParams,
          response: { 200: campaignResponse, ...errors },
        },
      },
      async (request) => ({
        data: { campaign: await campaigns.read(request.params.id) },
      }),
    );
  }
}
