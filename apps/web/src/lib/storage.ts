/** Browser storage of spec §3/§9: user, plan, course and setting data under the `auth.` prefix. */
export const STORAGE_PREFIX = "auth.";

export type StoredKey = "user" | "plan" | "course" | "setting" | "loggedIn";

export function store(key: StoredKey, value: unknown): void {
  try {
    if (value === undefined || value === null) localStorage.removeItem(STORAGE_PREFIX + key);
    else localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage may be full or disabled (private mode): the app works without it.
  }
}

export function stored<T>(key: StoredKey): T | null {
  try {
    const raw = localStorage.getItem(STORAGE_PREFIX + key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

/** Logout clears all local storage (spec §4). */
export function clearStorage(): void {
  try {
    localStorage.clear();
  } catch {
    // ignore
  }
}
