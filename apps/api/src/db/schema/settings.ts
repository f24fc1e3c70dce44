import { LOCALES, VAT_SCHEMES } from "@parlons/contract";
import { sql } from "drizzle-orm";
import { boolean, check, pgTable, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** The settings object of spec §3: one row (id 1) for the whole site. */
export const settings = pgTable(
  "settings",
  {
    id: smallint("id").primaryKey().default(1),
    /** server: relative audio URLs; cdn: audio URLs start with audio_cdn_base_url. */
    audioSource: text("audio_source", { enum: ["server", "cdn"] })
      .notNull()
      .default("server"),
    audioCdnBaseUrl: text("audio_cdn_base_url"),
    contactEmail: text("contact_email").notNull(),
    supportUrl: text("support_url"),
    /** One of the contract's LOCALES, checked by the contract (a new language needs no migration). */
    defaultLocale: text("default_locale", { enum: LOCALES }).notNull().default("fr"),
    /** Self-registration allowed. */
    registrationsOpen: boolean("registrations_open").notNull().default(true),
    /** Staff (back-office access) must sign in with a second factor; those without one set it up first. */
    staffTwoFactorRequired: boolean("staff_two_factor_required").notNull().default(false),
    /** The seller printed on receipts: trading name, postal address, tax or company id (SIRET, VAT). */
    sellerName: text("seller_name").notNull().default("Parlons"),
    sellerAddress: text("seller_address").notNull().default(""),
    sellerTaxId: text("seller_tax_id").notNull().default(""),
    /** The seller's country (ISO 3166-1 alpha-2), its intra-EU VAT number, and how it charges VAT (contract VAT_SCHEMES). */
    sellerCountry: text("seller_country").notNull().default("FR"),
    sellerVatNumber: text("seller_vat_number").notNull().default(""),
    vatScheme: text("vat_scheme", { enum: VAT_SCHEMES }).notNull().default("exempt"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    check("settings_single_row", sql`${t.id} = 1`),
    check("settings_audio_source", sql`${t.audioSource} in ('server', 'cdn')`),
    check("settings_cdn_base_url", sql`${t.audioSource} <> 'cdn' or ${t.audioCdnBaseUrl} is not null`),
  ],
);
