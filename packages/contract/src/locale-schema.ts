import { z } from "zod";
import { LOCALES } from "./locales";

/** One of the site's languages, in a query or a body (kept apart from locales.ts, which has no zod). */
export const localeSchema = z.enum(LOCALES);
