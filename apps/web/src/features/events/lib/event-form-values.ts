import type { EventBody, EventItem, EventKind } from "@parlons/contract";
import dayjs, { type Dayjs } from "dayjs";

export interface EventFormValues {
  title_fr: string;
  title_en: string;
  description_fr: string;
  description_en: string;
  title_es: string;
  description_es: string;
  kind: EventKind;
  location: string;
  online_url: string;
  starts_at: Dayjs | null;
  ends_at: Dayjs | null;
  capacity: number | null;
  active: boolean;
  premium_only: boolean;
}

export const EMPTY_EVENT: EventFormValues = {
  title_fr: "",
  title_en: "",
  description_fr: "",
  description_en: "",
  title_es: "",
  description_es: "",
  kind: "online",
  location: "",
  online_url: "",
  starts_at: null,
  ends_at: null,
  capacity: 12,
  active: true,
  premium_only: false,
};

export function toFormValues(event: EventItem): EventFormValues {
  return {
    title_fr: event.title_fr,
    title_en: event.title_en,
    description_fr: event.description_fr,
    description_en: event.description_en,
    title_es: event.title_es,
    description_es: event.description_es,
    kind: event.kind,
    location: event.location ?? "",
    online_url: event.online_url ?? "",
    starts_at: dayjs(event.starts_at),
    ends_at: dayjs(event.ends_at),
    capacity: event.capacity,
    active: event.active,
    premium_only: event.premium_only,
  };
}

/** The API body; the form has already checked that required fields are set. */
export function toEventBody(values: EventFormValues): EventBody {
  return {
    title_fr: values.title_fr.trim(),
    title_en: values.title_en.trim(),
    description_fr: values.description_fr.trim(),
    description_en: values.description_en.trim(),
    title_es: values.title_es.trim(),
    description_es: values.description_es.trim(),
    kind: values.kind,
    location: values.location.trim() || null,
    online_url: values.online_url.trim() || null,
    starts_at: (values.starts_at ?? dayjs()).toISOString(),
    ends_at: (values.ends_at ?? dayjs()).toISOString(),
    capacity: values.capacity ?? 1,
    active: values.active,
    premium_only: values.premium_only,
  };
}
