/** The signed-in session kept in local storage (spec §5.5): the bearer token and the user. */

export interface SessionUser {
  id: string;
  username: string;
  role: 'admin' | 'operator' | string;
}
export interface StoredSession {
  token: string;
  user: SessionUser;
}
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const TOKEN_KEY = 'wfctl.token';
export const USER_KEY = 'wfctl.user';

/** The stored session, or null when absent or unreadable (a corrupt entry is treated as signed out). */
export function loadSession(store: KeyValueStore): StoredSession | null {
  const token = store.getItem(TOKEN_KEY);
  const rawUser = store.getItem(USER_KEY);
  if (!token || !rawUser) return null;
  try {
    const user = JSON.parse(rawUser) as SessionUser;
    if (!user || typeof user.username !== 'string') return null;
    return { token, user };
  } catch {
    return null;
  }
}

export function saveSession(store: KeyValueStore, s: StoredSession): void {
  store.setItem(TOKEN_KEY, s.token);
  store.setItem(USER_KEY, JSON.stringify(s.user));
}

export function clearSession(store: KeyValueStore): void {
  store.removeItem(TOKEN_KEY);
  store.removeItem(USER_KEY);
}
