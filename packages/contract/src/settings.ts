import { z } from "zod";
import { emailField } from "./auth";
import { envelope } from "./common";
import { localeSchema } from "./locale-schema";
import type { Locale } from "./locales";
import { isUrl } from "./validation";
import { countryCode, vatScheme } from "./vat";

/** The settings object of spec §3 (one for the whole site) and its audio source. */

export const AUDIO_SOURCES = ["server", "cdn"] as const;
export const audioSourceType = z.enum(AUDIO_SOURCES);
export type AudioSourceType = z.infer<typeof audioSourceType>;

/** The settings' default language: one of the site's locales. */
export const siteLocale = localeSchema;
export type SiteLocale = Locale;

export type CdnBaseUrlError = "url.invalid" | "url.https" | "url.extra";

// No WHATWG URL here: the contract builds without DOM or Node types, like isUrl.
const ABSOLUTE_URL =
  /^(?<scheme>[a-z][a-z\d+.-]*):\/\/(?<authority>[^/?#]*)(?<path>[^?#]*)(?<rest>[?#].*)?$/i;
const HOST_PORT =
  /^(?<host>localhost|\[::1\]|(?:\d{1,3}\.){3}\d{1,3}|(?:[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?\.)+[a-z]{2,63})(?::(?<port>\d{1,5}))?$/i;
const URL_PATH = /^(?:\/[-\w%.~+@:!$&'()*,;=]*)*$/;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A CDN base URL that audio URLs are built on (`{base}/api/v1/media/audio/...`): https
 * (http only for a local host, for testing), no credentials, query or fragment; a path
 * prefix is allowed. Returns an error code or null.
 */
export function checkCdnBaseUrl(value: string | null | undefined): CdnBaseUrlError | null {
  const match = value && value.length <= 2048 ? ABSOLUTE_URL.exec(value.trim()) : null;
  if (!match?.groups) return "url.invalid";
  const { scheme = "", authority = "", path = "", rest } = match.groups;
  if (authority.includes("@") || rest) return "url.extra";
  const hostPort = HOST_PORT.exec(authority);
  const host = hostPort?.groups?.host?.toLowerCase();
  const port = hostPort?.groups?.port;
  if (!host || !URL_PATH.test(path)) return "url.invalid";
  if (/^[\d.]+$/.test(host) && !host.split(".").every((part) => Number(part) <= 255)) return "url.invalid";
  if (port && Number(port) > 65535) return "url.invalid";
  const protocol = scheme.toLowerCase();
  if (protocol !== "https" && !(protocol === "http" && LOCAL_HOSTS.has(host))) return "url.https";
  return null;
}

/** A valid base URL (checkCdnBaseUrl) in canonical form: `https://CDN.example.com/p/` → `https://cdn.example.com/p`. */
export function normalizeBaseUrl(value: string): string {
  const { scheme = "", authority = "", path = "" } = ABSOLUTE_URL.exec(value.trim())?.groups ?? {};
  return `${scheme.toLowerCase()}://${authority.toLowerCase()}${path.replace(/\/+$/, "")}`;
}

/** An absolute http(s) link (the support page). */
export function isWebUrl(value: string | null | undefined): boolean {
  return Boolean(value && /^https?:\/\//i.test(value.trim()) && isUrl(value));
}

export const cdnBaseUrlMessages: Record<CdnBaseUrlError, string> = {
  "url.invalid": "Please enter a valid URL",
  "url.https": "The CDN base URL must use https (http only for localhost)",
  "url.extra": "The CDN base URL cannot carry credentials, a query or a fragment",
};

const cdnBaseUrl = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, ctx) => {
    const problem = checkCdnBaseUrl(value);
    if (problem) ctx.addIssue({ code: "custom", message: cdnBaseUrlMessages[problem] });
  });

const webUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => isWebUrl(v), "Please enter a valid http(s) URL");

export const audioSource = z.object({
  /** server: relative audio URLs on this server; cdn: `{base_url}/api/v1/media/audio/...`. */
  type: audioSourceType,
  /** The CDN's base URL when type is cdn, otherwise null. */
  base_url: z.string().nullable(),
});
export type AudioSource = z.infer<typeof audioSource>;

/** The settings object as it leaves the server: public, no secret in it. */
export const setting = z.object({
  audio_source: audioSource,
  contact_email: z.string(),
  support_url: z.string().nullable(),
  default_locale: siteLocale,
  /** Whether visitors may create their own account (`POST /v1/user/self-register`). */
  registrations_open: z.boolean(),
  /** Staff must sign in with a second factor (those without one set it up at their next sign-in). */
  staff_two_factor_required: z.boolean(),
  /**
   * The seller printed on invoices (public, like a legal notice): its legal identity, country,
   * company id (SIRET), intra-EU VAT number and VAT scheme (prices are entered tax included).
   */
  seller: z.object({
    name: z.string(),
    address: z.string(),
    tax_id: z.string(),
    country: z.string(),
    vat_number: z.string(),
    vat_scheme: vatScheme,
  }),
  updated_at: z.string(),
});
export type Setting = z.infer<typeof setting>;

/** `GET /v1/settings` and `POST /v1/settings`: the object sits in `data.setting` (spec §7). */
export const settingResponse = envelope(z.object({ setting }));
export type SettingResponse = z.infer<typeof settingResponse>;

/**
 * `POST /v1/settings`: a partial update. With `audio_source.type` "cdn" the base URL may be
 * left out to keep the stored one; "server" clears it.
 */
export const settingUpdateBody = z
  .object({
    audio_source: z
      .object({ type: audioSourceType, base_url: cdnBaseUrl.nullable().optional() })
      .strict()
      .optional(),
    contact_email: emailField.optional(),
    support_url: webUrl.nullable().optional(),
    default_locale: siteLocale.optional(),
    registrations_open: z.boolean().optional(),
    staff_two_factor_required: z.boolean().optional(),
    seller: z
      .object({
        name: z.string().trim().min(1, "The seller's name is required").max(200).optional(),
        address: z.string().trim().max(1000).optional(),
        tax_id: z.string().trim().max(100).optional(),
        country: countryCode.optional(),
        vat_number: z
          .string()
          .trim()
          .toUpperCase()
          .regex(
            /^([A-Z]{2}[0-9A-Z+*]{2,13})?$/,
            "An intra-EU VAT number: two letters, then 2 to 13 characters",
          )
          .optional(),
        vat_scheme: vatScheme.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type SettingUpdateBody = z.infer<typeof settingUpdateBody>;
