import { PERMISSIONS, settingResponse, settingUpdateBody } from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

export default async function settingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { settings } = app.deps.services;

  app.get(
    "/v1/settings",
    {
      // kept in memory until the settings change
      config: { access: access.public, keep: { per: "everyone", droppedBy: ["settings"] } },
      schema: {
        tags: ["settings"],
        summary: "The site settings (public: the web app loads them at start and after login)",
        response: { 200: settingResponse },
      },
    },
    async () => ({ data: { setting: await settings.get() } }),
  );

  app.post(
    "/v1/settings",
    {
      config: { access: access.permission(PERMISSIONS.settingsManage) },
      schema: {
        tags: ["settings"],
        summary: "Change some settings (the fields sent); recorded in the audit log",
        body: settingUpdateBody,
        response: { 200: settingResponse, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request) => {
      const setting = await settings.update(principalOf(request), request.body);
      return { message: "Settings saved", data: { setting } };
    },
  );
}
