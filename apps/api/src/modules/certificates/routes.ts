import {
  certificateCodeParams,
  certificateListQuery,
  certificateListResponse,
  certificatePdfQuery,
  certificateResponse,
  certificateVerificationResponse,
  idParams,
  langPrefix,
  myCertificatesResponse,
  PERMISSIONS,
  revokeCertificateBody,
  staffCertificateResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { learnerLimits } from "../../plugins/learner-limits";
import { certificatePdf } from "./certificate-pdf";
import { certificatePolicy } from "./policy";
import { presentCertificate } from "./service";

const errors = errorResponses(404);
const tags = ["certificates"];

/** Certificates of completion: the learner's, the public check of a code, staff's list and revocation. */
export default async function certificateRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { certificates } = app.deps.services;
  const { publicUrl } = app.deps.config;
  const owner = { access: access.owner(certificatePolicy((id) => certificates.ownerOf(id))) };

  app.get(
    "/v1/certificates/mine",
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: "The learner's own certificates, newest first",
        response: { 200: myCertificatesResponse },
      },
    },
    async (request) => ({ data: { certificates: await certificates.mine(principalOf(request).id) } }),
  );

  app.get(
    "/v1/certificates/verify/:code",
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: "Checks a certificate's code: name, course, date and whether it is valid or revoked",
        params: certificateCodeParams,
        response: { 200: certificateVerificationResponse, ...errors },
      },
    },
    async (request, reply) => {
      const certificate = await certificates.verify(request.params.code);
      reply.header("cache-control", "no-store");
      return { data: { certificate } };
    },
  );

  app.get(
    "/v1/certificates/:id",
    {
      config: owner,
      schema: {
        tags,
        summary: "A certificate (its learner, or staff)",
        params: idParams,
        response: { 200: certificateResponse, ...errors },
      },
    },
    async (request) => ({
      data: { certificate: presentCertificate(await certificates.get(request.params.id)) },
    }),
  );

  app.get(
    "/v1/certificates/:id/pdf",
    {
      config: { ...owner, rateLimit: learnerLimits.pdf },
      schema: {
        tags,
        summary: "A certificate as a PDF, in ?lang= (French by default)",
        params: idParams,
        querystring: certificatePdfQuery,
        response: { 200: z.unknown().describe("The certificate as a PDF (application/pdf)"), ...errors },
      },
    },
    async (request, reply) => {
      const certificate = presentCertificate(await certificates.get(request.params.id));
      const lang = request.query.lang ?? "fr";
      const verifyUrl = `${publicUrl}${langPrefix(lang)}/c/${certificate.code}`;
      const pdf = await certificatePdf(certificate, lang, verifyUrl);
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `attachment; filename="certificate-${certificate.code}.pdf"`)
        .header("cache-control", "private, no-store")
        .send(pdf);
    },
  );

  app.get(
    "/v1/certificates",
    {
      config: { access: access.permission(PERMISSIONS.certificatesManage) },
      schema: {
        tags,
        summary: "Every certificate, newest first, by code, name or course and status",
        querystring: certificateListQuery,
        response: { 200: certificateListResponse },
      },
    },
    async (request) => ({ data: await certificates.list(request.query) }),
  );

  app.post(
    "/v1/certificates/:id/revoke",
    {
      config: { access: access.permission(PERMISSIONS.certificatesManage) },
      schema: {
        tags,
        summary: "Revokes a certificate: its verification page then says so",
        params: idParams,
        body: revokeCertificateBody,
        response: { 200: staffCertificateResponse, ...errors },
      },
    },
    async (request) => {
      const actor = principalOf(request);
      const certificate = await certificates.revoke(
        request.params.id,
        { id: actor.id, email: actor.email },
        request.body.reason,
      );
      return { message: "Certificate revoked", data: { certificate } };
    },
  );
}
