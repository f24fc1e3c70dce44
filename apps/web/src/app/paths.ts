export { routes } from "@parlons/contract";

/** Unprefixed URLs to link to; wrap them with `useLocalePath()` / `localizePath()`. */
export const paths = {
  home: "/",
  faqs: "/faqs",
  contact: "/contact",
  login: "/auth/login",
  logout: "/logout",
  forgotPassword: "/forgot-password",
  courses: "/courses",
  pricing: "/pricing",
  dashboard: "/dashboard",
  profile: "/profile",
  changePassword: "/change-password",
  billing: "/billing",
  course: (id: string) => `/courses/${encodeURIComponent(id)}`,
  events: "/events",
  event: (id: string) => `/events/${encodeURIComponent(id)}`,
} as const;
