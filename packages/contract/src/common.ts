import { z } from "zod";
import { perLocaleText } from "./localized";

export const uuid = z.uuid();

export const errorResponse = z
  .object({
    statusCode: z.number().int(),
    code: z.string(),
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  // a named component of the OpenAPI document (`#/components/schemas/Error`)
  .meta({
    id: "Error",
    description: "The error envelope of every 4xx and 5xx answer; `errors` lists field messages (400/422).",
    examples: [
      {
        statusCode: 422,
        code: "VALIDATION_FAILED",
        message: "Validation failed",
        errors: { email: ["Invalid email address"] },
      },
    ],
  });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ message: z.string() });

/** Success envelope `{ message?, data }` (ARCHITECTURE §4). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ message: z.string().optional(), data });
}

/**
 * Collections that their routes return whole (the spec's clients expect every item) are bounded
 * where they grow instead: creating one more than this is refused with 409 LIMIT_REACHED.
 * Paginated lists are bounded by their `pageSize` maximum (100).
 */
export const COLLECTION_LIMITS = { lessonsPerCourse: 500, plans: 50, roles: 50 } as const;

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const pagination = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});

export const idParams = z.object({ id: z.uuid() });

export const isoDate = z.string();

/**
 * How a published course or event is named, as the API answers it: id, slug, title and description
 * in every locale (`title_es`…: "" when there is none; readers pick by `pickField`'s fallback rule).
 */
export const publishedNaming = {
  id: z.string(),
  slug: z.string(),
  title_fr: z.string(),
  title_en: z.string(),
  ...perLocaleText("title"),
  description_fr: z.string(),
  description_en: z.string(),
  ...perLocaleText("description"),
};
