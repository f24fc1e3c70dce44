/**
 * Rules shared by the API and the web app (spec §5). Each rule returns an error
 * code (translated by the web, explained in English by the API) or null.
 */

export const PASSWORD_MIN_LENGTH = 8;

/** Any ASCII punctuation or symbol counts as the "special character" of spec §5. */
const SPECIAL_CHARACTER = /[!-/:-@[-`{-~]/;

export type PasswordError = "password.required" | "password.min" | "password.special";

export function checkPassword(password: string | null | undefined): PasswordError | null {
  if (!password) return "password.required";
  if (password.length < PASSWORD_MIN_LENGTH) return "password.min";
  if (!SPECIAL_CHARACTER.test(password)) return "password.special";
  return null;
}

/** English messages of spec §5, used by the API and as the web's `en` texts. */
export const passwordMessages: Record<PasswordError, string> = {
  "password.required": "Cannot be empty",
  "password.min": "At least 8 Characters long",
  "password.special": "Should atleast have a special character",
};

const EMAIL =
  /^[^\s@"'<>()[\],;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: string | null | undefined): boolean {
  if (!value || value.length > 254) return false;
  return EMAIL.test(value.trim());
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Lowercases, strips accents (Vietnamese too) and turns spaces into hyphens. */
export function slugify(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[đĐ]/g, "d")
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9\s-]/g, "")
    .replace(/[\s_]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

const URL_PATTERN = new RegExp(
  "^(https?:\\/\\/)?" + // optional scheme
    "((([a-z\\d]([a-z\\d-]*[a-z\\d])*)\\.)+[a-z]{2,}|" + // host name
    "localhost|" +
    "(?<ip>(\\d{1,3}\\.){3}\\d{1,3}))" + // or IPv4
    "(?<port>:\\d{1,5})?" + // optional port
    "(\\/[-a-z\\d%_.~+@:]*)*" + // path
    "(\\?[;&a-z\\d%_.~+=@:/-]*)?" + // query
    "(#[-a-z\\d_/?=&%.~+]*)?$", // hash
  "i",
);

/** URL check of spec §5: optional http/https, host or IP, optional port, path, query, hash. */
export function isUrl(value: string | null | undefined): boolean {
  if (!value || value.length > 2048) return false;
  const match = URL_PATTERN.exec(value.trim());
  if (!match) return false;
  const ip = match.groups?.ip;
  if (ip && !ip.split(".").every((part) => Number(part) <= 255)) return false;
  const port = match.groups?.port;
  if (port && Number(port.slice(1)) > 65535) return false;
  return true;
}

export type Gender = "m" | "f" | "other";

/** Gender helper of spec §3: m is Male, f is Female, anything else is Other. */
export function genderLabel(gender: string | null | undefined): "Male" | "Female" | "Other" {
  if (gender === "m") return "Male";
  if (gender === "f") return "Female";
  return "Other";
}

/**
 * Redirect targets must be local paths (spec §5): one leading slash, no scheme,
 * no protocol-relative `//host` nor `/\host`, no control characters.
 */
export function isLocalPath(value: string | null | undefined): value is string {
  if (!value || value.length > 2048) return false;
  if (!value.startsWith("/")) return false;
  if (value.startsWith("//") || value.startsWith("/\\")) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  return true;
}

/** Returns the path if it is local, otherwise the fallback. */
export function safeRedirect(value: string | null | undefined, fallback = "/dashboard"): string {
  return isLocalPath(value) ? value : fallback;
}
