import type { Setting } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { toFormValues, toUpdateBody } from "./settings-form-values";

const seller: Setting["seller"] = {
  name: "Parlons SAS",
  address: "1 rue Exemple\n75001 Paris",
  tax_id: "",
  country: "FR",
  vat_number: "FR12345678901",
  vat_scheme: "oss",
};

const setting: Setting = {
  audio_source: { type: "cdn", base_url: "https://cdn.example.com" },
  contact_email: "hello@parlons.app",
  support_url: null,
  default_locale: "fr",
  registrations_open: true,
  staff_two_factor_required: false,
  seller,
  updated_at: "2026-01-01T00:00:00.000Z",
};

describe("settings form values", () => {
  it("round-trips a setting", () => {
    expect(toUpdateBody(toFormValues(setting))).toEqual({
      audio_source: { type: "cdn", base_url: "https://cdn.example.com" },
      contact_email: "hello@parlons.app",
      support_url: null,
      default_locale: "fr",
      registrations_open: true,
      staff_two_factor_required: false,
      seller,
    });
  });

  it("sends no base URL for the server source and trims texts", () => {
    const values = {
      ...toFormValues(setting),
      audio_source_type: "server" as const,
      contact_email: " a@b.fr ",
      support_url: " https://help.example.com ",
    };
    expect(toUpdateBody(values)).toMatchObject({
      audio_source: { type: "server" },
      contact_email: "a@b.fr",
      support_url: "https://help.example.com",
    });
  });
});
