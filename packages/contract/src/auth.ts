import { z } from "zod";
import { envelope } from "./common";
import { SPEAK_CODES } from "./locales";
import { checkPassword, isEmail, passwordMessages } from "./validation";

/** A user's language as stored and sent (`FR`, `EN`…): the site's locales in capitals. */
export const speak = z.enum(SPEAK_CODES);
export type Speak = z.infer<typeof speak>;

export const emailField = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254)
  .refine((v) => isEmail(v), "Please enter a valid email");

export const passwordField = z
  .string({ error: passwordMessages["password.required"] })
  .max(256)
  .superRefine((value, ctx) => {
    const problem = checkPassword(value);
    if (problem) ctx.addIssue({ code: "custom", message: passwordMessages[problem] });
  });

export const authenticateBody = z
  .object({
    username: z.string({ error: "Email is required" }).trim().min(1, "Email is required").max(254),
    password: z.string({ error: "Password is required" }).min(1, "Password is required").max(256),
  })
  .meta({ examples: [{ username: "learner@example.com", password: "Learner-pass1!" }] });
export type AuthenticateBody = z.infer<typeof authenticateBody>;

export const tokenData = z.object({ accessToken: z.string(), expiresIn: z.number().int() });
export const tokenResponse = envelope(tokenData);
export type TokenResponse = z.infer<typeof tokenResponse>;

/** Signup payload of spec §3. `role` is accepted but always forced to CUSTOMER. */
export const selfRegisterBody = z
  .object({
    email: emailField,
    password: passwordField,
    full_name: z.string().trim().max(120).optional(),
    role: z.string().max(40).optional(),
    course_id: z.string().max(64).nullable().optional(),
    speak: speak.default("FR"),
  })
  .meta({
    examples: [
      { email: "learner@example.com", password: "Learner-pass1!", full_name: "Camille Martin", speak: "FR" },
    ],
  });
export type SelfRegisterBody = z.input<typeof selfRegisterBody>;

export const selfRegisterResponse = envelope(
  z.object({ id: z.string(), email: z.string(), status: z.enum(["PENDING", "ACTIVE"]) }),
);

export const emailQuery = z.object({ email: z.string().trim().max(254) });
export const usernameQuery = z.object({ username: z.string().trim().max(254) });
export const existsResponse = envelope(z.object({ exists: z.boolean() }));

export const resendActivationBody = z.object({ email: z.string().trim().max(254) });

export const tokenBody = z.object({ token: z.string().min(10).max(200) });
export const tokenValidResponse = envelope(z.object({ valid: z.boolean(), email: z.string().optional() }));

export const resetPasswordBody = z.object({
  token: z.string().min(10).max(200),
  password: passwordField,
});

export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, "Password is required").max(256),
  newPassword: passwordField,
});

export const socialLoginQuery = z.object({ token: z.string().min(1).max(4096) });

export const SOCIAL_PROVIDERS = ["google", "facebook", "github"] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** Spec §3/§7: social login answers `access_token`; `data` matches the password login. */
export const socialLoginResponse = z.object({
  message: z.string(),
  access_token: z.string(),
  data: tokenData,
});
export type SocialLoginResponse = z.infer<typeof socialLoginResponse>;

/** `?social_error=` of the login page after a failed provider round trip. */
export const SOCIAL_ERRORS = [
  "state",
  "denied",
  "failed",
  "email",
  "closed",
  "disabled",
  "unavailable",
] as const;
export type SocialError = (typeof SOCIAL_ERRORS)[number];
