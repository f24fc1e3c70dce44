import { type CurrentUser, ROLE_ADMIN, ROLE_CUSTOMER } from "@parlons/contract";
import { useSyncExternalStore } from "react";
import { api, onSessionExpired, refreshAccessToken, setAccessToken } from "./api";
import { queryClient } from "./query-client";
import { clearStorage, STORAGE_PREFIX, store, stored } from "./storage";

type SessionStatus = "loading" | "anonymous" | "authenticated";
export interface Session {
  status: SessionStatus;
  user: CurrentUser | null;
  /** Started without a network from the user kept in storage: no token until it comes back. */
  offline?: boolean;
}

let session: Session = { status: "loading", user: null };
const listeners = new Set<() => void>();

function setSession(next: Session): void {
  session = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSession(): Session {
  return session;
}

/** The signed-in user's id, outside React (null for visitors). */
export function currentUserId(): string | null {
  return session.user?.id ?? null;
}

/** What the server renders (and hydration first renders): the session is not known yet. */
const UNKNOWN_SESSION: Session = { status: "loading", user: null };
const serverSession = () => UNKNOWN_SESSION;

export function useSession(): Session {
  return useSyncExternalStore(subscribe, getSession, serverSession);
}

export function isAdmin(user: CurrentUser | null | undefined): boolean {
  return !!user && (user.role === ROLE_ADMIN || user.roles[0]?.title === ROLE_ADMIN);
}

export function isCustomer(user: CurrentUser | null | undefined): boolean {
  return !!user && user.role === ROLE_CUSTOMER;
}

/** Permission set of spec §6: the slugs of the first role's permissions (the server sends them flat too). */
export function hasPermission(user: CurrentUser | null | undefined, slug: string): boolean {
  if (!user) return false;
  if (user.permissions.includes(slug)) return true;
  return user.roles[0]?.permissions.some((p) => p.slug === slug) ?? false;
}

/**
 * Loads user details, then the settings (spec §7), not waited for. The active plans were fetched
 * here too and kept in storage, where nothing read them: one request less in front of every
 * signed-in page (the pricing and billing pages ask for them themselves).
 */
export async function loadCurrentUser(): Promise<CurrentUser> {
  const me = await api<{ data: { data: CurrentUser } }>("/v1/user/me", { silent: true });
  const user = me.data.data;
  store("user", user);
  store("plan", user.plan);
  store("loggedIn", true);
  setSession({ status: "authenticated", user });
  for (const started of sessionStarts) started(user);
  return user;
}

const sessionStarts: ((user: CurrentUser) => void)[] = [];
const sessionEnds: (() => Promise<void>)[] = [];

/**
 * What a session's start and end mean to the features (the settings kept, the downloads checked
 * or cleared) is told by the app at start-up (main.tsx): this shared module knows no feature.
 */
export function onSessionStart(handler: (user: CurrentUser) => void): void {
  sessionStarts.push(handler);
}

/** Run at logout, after the session is cleared, and waited for. */
export function onSessionEnd(handler: () => Promise<void>): void {
  sessionEnds.push(handler);
}

/** After a successful sign-in: keep the token in memory and load the user. */
export async function startSession(accessToken: string, expiresIn?: number): Promise<CurrentUser> {
  setAccessToken(accessToken, expiresIn);
  try {
    return await loadCurrentUser();
  } catch (error) {
    setAccessToken(null);
    throw error;
  }
}

let restoring: Promise<void> | null = null;

/**
 * On start-up, the httpOnly refresh cookie may still hold a session: try to restore it once.
 * The `auth.loggedIn` flag (set at sign-in, cleared at logout) saves a pointless 401 for
 * visitors who never signed in on this browser.
 */
export function restoreSession(): Promise<void> {
  restoring ??= (async () => {
    try {
      if (stored<boolean>("loggedIn") === true) {
        if (await refreshAccessToken()) {
          await loadCurrentUser();
          return;
        }
        // no network: the user kept at the last online start, for downloaded and visited lessons
        const user = stored<CurrentUser>("user");
        if (user && !navigator.onLine) {
          setSession({ status: "authenticated", user, offline: true });
          return;
        }
      }
    } catch {
      setAccessToken(null);
    }
    forgetUser();
    setSession({ status: "anonymous", user: null });
  })();
  return restoring;
}

/** Back online after an offline start: renew the session (a dead one sends to the login page). */
export async function resumeOnline(): Promise<void> {
  if (!session.offline) return;
  if (await refreshAccessToken()) {
    await loadCurrentUser().catch(() => undefined);
    return;
  }
  if (navigator.onLine) afterExpirySignal();
}

function afterExpirySignal(): void {
  forgetUser();
  setSession({ status: "anonymous", user: null });
  afterExpiry?.();
}

/** Drops the `auth.` data of a session that no longer exists (other keys stay). */
function forgetUser(): void {
  try {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith(STORAGE_PREFIX)) localStorage.removeItem(key);
    }
  } catch {
    // ignore
  }
}

let afterExpiry: (() => void) | null = null;

/** The app tells us how to send the user to the login page when the session dies. */
export function onSessionLost(handler: () => void): void {
  afterExpiry = handler;
}

onSessionExpired(() => {
  setAccessToken(null);
  forgetUser();
  queryClient.clear();
  const wasAuthenticated = session.status === "authenticated";
  setSession({ status: "anonymous", user: null });
  if (wasAuthenticated) afterExpiry?.();
});

/** `GET /v1/auth/logout`, then clear everything (spec §4: all local storage). */
export async function logout(): Promise<void> {
  try {
    await api("/v1/auth/logout", { silent: true, noRefresh: true });
  } catch {
    // The session ends locally anyway.
  }
  setAccessToken(null);
  clearStorage();
  queryClient.clear();
  setSession({ status: "anonymous", user: null });
  await Promise.all(sessionEnds.map((ended) => ended().catch(() => undefined)));
}
