import { isEuCountry, normalizeBaseUrl, type Setting, type SettingUpdateBody } from "@parlons/contract";
import { eq } from "drizzle-orm";
import type { Config } from "../../config";
import type { Db, DbOrTx } from "../../db/client";
import { settings } from "../../db/schema/settings";
import type { ChangeBus } from "../../lib/change-bus";
import { validationFailed } from "../../lib/errors";
import { changedFields } from "../audit/policy";
import type { AuditService } from "../audit/service";
import type { Principal } from "../users/service";

type SettingsRow = typeof settings.$inferSelect;
type SettingsValues = Omit<typeof settings.$inferInsert, "id" | "updatedAt" | "updatedBy">;

const SETTINGS_ID = 1;

/** The row a fresh install starts with, from the configuration (AUDIO_BASE_URL, CONTACT_EMAIL). */
export function settingsDefaults(config: Pick<Config, "contactEmail" | "media">): SettingsValues {
  const cdn = config.media.audioBaseUrl;
  return {
    audioSource: cdn ? "cdn" : "server",
    audioCdnBaseUrl: cdn || null,
    contactEmail: config.contactEmail,
    supportUrl: null,
    defaultLocale: "fr",
    registrationsOpen: true,
    staffTwoFactorRequired: false,
    sellerName: "Parlons",
    sellerAddress: "",
    sellerTaxId: "",
    sellerCountry: "FR",
    sellerVatNumber: "",
    vatScheme: "exempt",
  };
}

/** VAT charged needs a VAT number to print; the one-stop shop needs a seller established in the EU. */
function checkVatScheme(row: Pick<SettingsRow, "vatScheme" | "sellerVatNumber" | "sellerCountry">): void {
  if (row.vatScheme === "exempt") return;
  if (!row.sellerVatNumber)
    throw validationFailed({
      "seller.vat_number": ["An invoice that charges VAT names the seller's VAT number"],
    });
  if (row.vatScheme === "oss" && !isEuCountry(row.sellerCountry))
    throw validationFailed({
      "seller.country": ["The EU one-stop shop is for a seller established in the EU"],
    });
}

function present(row: SettingsRow): Setting {
  const cdn = row.audioSource === "cdn";
  return {
    audio_source: { type: row.audioSource, base_url: cdn ? row.audioCdnBaseUrl : null },
    contact_email: row.contactEmail,
    support_url: row.supportUrl,
    default_locale: row.defaultLocale,
    registrations_open: row.registrationsOpen,
    staff_two_factor_required: row.staffTwoFactorRequired,
    seller: {
      name: row.sellerName,
      address: row.sellerAddress,
      tax_id: row.sellerTaxId,
      country: row.sellerCountry,
      vat_number: row.sellerVatNumber,
      vat_scheme: row.vatScheme,
    },
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The single settings row, kept in memory: lessons ask for the audio source on every list and
 * the CSP on every response. An update replaces the copy here at once and, through the change
 * bus, makes every other process read the row again.
 */
export function createSettingsService(deps: {
  db: Db;
  defaults: SettingsValues;
  changes?: ChangeBus;
  audit: Pick<AuditService, "record">;
}) {
  const { db, defaults, changes, audit } = deps;
  let cached: Setting | null = null;
  let loading: Promise<Setting> | null = null;
  // bumped by each change, so that a read started before it cannot put the old row back
  let generation = 0;

  /** Inserts the default row unless it exists (first start, or a database emptied by tests). */
  async function ensure(tx: DbOrTx = db): Promise<void> {
    await tx
      .insert(settings)
      .values({ id: SETTINGS_ID, ...defaults })
      .onConflictDoNothing();
  }

  async function read(tx: DbOrTx = db): Promise<SettingsRow> {
    const [row] = await tx.select().from(settings).where(eq(settings.id, SETTINGS_ID));
    if (row) return row;
    await ensure(tx);
    const [created] = await tx.select().from(settings).where(eq(settings.id, SETTINGS_ID));
    if (!created) throw new Error("settings row missing after insert");
    return created;
  }

  async function get(): Promise<Setting> {
    if (cached) return cached;
    if (!loading) {
      const started = generation;
      const load = read()
        .then((row) => {
          const setting = present(row);
          if (started === generation) cached = setting;
          return setting;
        })
        .finally(() => {
          if (loading === load) loading = null;
        });
      loading = load;
    }
    return loading;
  }

  changes?.subscribe((topic) => {
    if (topic !== "settings" && topic !== "*") return;
    generation += 1;
    cached = null;
    loading = null;
    // read again now: the CSP of the next response needs it
    get().catch(() => undefined);
  });

  return {
    ensure,
    get,

    /**
     * The settings from inside a caller's transaction: the copy in memory, else the row read
     * through `tx` (on PGlite's one connection, a read beside an open transaction would wait forever).
     */
    async current(tx: DbOrTx): Promise<Setting> {
      return cached ?? present(await read(tx));
    },

    /** The copy in memory, without waiting (null until the first read, or right after a change). */
    peek(): Setting | null {
      return cached;
    },

    /** Prefix of audio URLs: the CDN base URL, or "" for URLs relative to this server. */
    async audioBaseUrl(): Promise<string> {
      const { audio_source } = await get();
      return audio_source.type === "cdn" && audio_source.base_url ? audio_source.base_url : "";
    },

    async registrationsOpen(): Promise<boolean> {
      return (await get()).registrations_open;
    },

    async staffTwoFactorRequired(): Promise<boolean> {
      return (await get()).staff_two_factor_required;
    },

    /**
     * Partial update by a staff member, recorded in the audit log with the fields that changed.
     * The body is already valid on its own; what depends on the stored row is checked here.
     */
    async update(actor: Principal, body: SettingUpdateBody): Promise<Setting> {
      const actorId = actor.id;
      const setting = await db.transaction(async (tx) => {
        await ensure(tx);
        const [before] = await tx.select().from(settings).where(eq(settings.id, SETTINGS_ID)).for("update");
        if (!before) throw new Error("settings row missing");
        const changes: Partial<SettingsValues> = {};
        if (body.audio_source) {
          const { type, base_url } = body.audio_source;
          changes.audioSource = type;
          if (type === "server") {
            changes.audioCdnBaseUrl = null;
          } else {
            const base = base_url ? normalizeBaseUrl(base_url) : before.audioCdnBaseUrl;
            if (!base) {
              throw validationFailed({
                "audio_source.base_url": ["The CDN base URL is required when audio comes from a CDN"],
              });
            }
            changes.audioCdnBaseUrl = base;
          }
        }
        if (body.contact_email !== undefined) changes.contactEmail = body.contact_email;
        if (body.support_url !== undefined) changes.supportUrl = body.support_url || null;
        if (body.default_locale !== undefined) changes.defaultLocale = body.default_locale;
        if (body.registrations_open !== undefined) changes.registrationsOpen = body.registrations_open;
        if (body.staff_two_factor_required !== undefined)
          changes.staffTwoFactorRequired = body.staff_two_factor_required;
        if (body.seller?.name !== undefined) changes.sellerName = body.seller.name;
        if (body.seller?.address !== undefined) changes.sellerAddress = body.seller.address;
        if (body.seller?.tax_id !== undefined) changes.sellerTaxId = body.seller.tax_id;
        if (body.seller?.country !== undefined) changes.sellerCountry = body.seller.country;
        if (body.seller?.vat_number !== undefined) changes.sellerVatNumber = body.seller.vat_number;
        if (body.seller?.vat_scheme !== undefined) changes.vatScheme = body.seller.vat_scheme;
        checkVatScheme({ ...before, ...changes });

        const changed = changedFields(
          Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof SettingsValues]])),
          changes,
        );
        if (!changed) return present(before);
        const [row] = await tx
          .update(settings)
          .set({ ...changes, updatedAt: new Date(), updatedBy: actorId })
          .where(eq(settings.id, SETTINGS_ID))
          .returning();
        if (!row) throw new Error("settings update failed");
        await audit.record(
          {
            actor,
            action: "settings.update",
            target: { type: "settings", id: String(SETTINGS_ID) },
            ...changed,
          },
          tx,
        );
        return present(row);
      });
      changes?.publish("settings");
      cached = setting;
      return setting;
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
