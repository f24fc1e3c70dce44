import { z } from "zod";
import { envelope, pagination } from "./common";
import { localeSchema } from "./locale-schema";
import { DEFAULT_LOCALE } from "./locales";

/** The learner's data rights (GDPR articles 15, 17 and 20): a copy of their data, and erasure. */

export const DATA_REQUEST_KINDS = ["export", "erasure"] as const;
export const DATA_REQUEST_STATUSES = ["pending", "running", "done", "failed"] as const;

export const dataRequest = z.object({
  id: z.uuid(),
  kind: z.enum(DATA_REQUEST_KINDS),
  status: z.enum(DATA_REQUEST_STATUSES),
  /** 0 to 100, while an export job runs. */
  progress: z.number().int().min(0).max(100),
  /** The learner's e-mail when the request was made; null once the account is erased. */
  email: z.string().nullable(),
  requested_at: z.string(),
  finished_at: z.string().nullable(),
  /** Until when the mailed download link works (an export job that is done). */
  expires_at: z.string().nullable(),
});
export type DataRequest = z.infer<typeof dataRequest>;

/** `POST /v1/user/me/data-export` when the archive is too large to send at once: the job. */
export const dataExportJobResponse = envelope(z.object({ request: dataRequest }));

export const myDataRequestsResponse = envelope(z.object({ requests: z.array(dataRequest) }));

/** `POST /v1/user/me/delete`: the password confirms it is the learner. */
export const deleteAccountBody = z.object({ password: z.string().min(1).max(200) }).strict();
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;

export const dataRequestListQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(DATA_REQUEST_STATUSES).optional(),
});
export type DataRequestListQuery = z.infer<typeof dataRequestListQuery>;

export const dataRequestListResponse = envelope(
  z.object({
    requests: z.array(dataRequest.extend({ user_id: z.uuid().nullable() })),
    pagination,
  }),
);
export type DataRequestListResponse = z.infer<typeof dataRequestListResponse>;

export const dataRequestResponse = envelope(z.object({ request: dataRequest }));

/** The legal pages every French online business shows (footer links), in both languages. */
export const LEGAL_PAGES = ["legal-notice", "privacy", "terms", "cookies"] as const;
export type LegalPageSlug = (typeof LEGAL_PAGES)[number];

export const legalPageParams = z.object({ page: z.enum(LEGAL_PAGES) });
export const legalPageQuery = z.object({ lang: localeSchema.default(DEFAULT_LOCALE) });

export const legalPage = z.object({
  slug: z.enum(LEGAL_PAGES),
  lang: localeSchema,
  title: z.string(),
  /** Plain text: paragraphs separated by a blank line, `## ` starts a heading. */
  body: z.string(),
  /** Whether staff replaced the default text (config `legal.<page>.<lang>`). */
  customized: z.boolean(),
  /**
   * The company's details the text needs and staff have not given yet (configuration
   * `legal.company`): their sentences are left out of `body`; staff see a banner until they are set.
   */
  missing: z.array(z.string()),
});
export type LegalPage = z.infer<typeof legalPage>;
export const legalPageResponse = envelope(z.object({ page: legalPage }));
