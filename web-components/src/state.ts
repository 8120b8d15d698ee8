/**
 * Browser-side singletons: the session (local storage), the API client with the bearer token, and
 * navigation. A 401 from any call clears the session and returns to /login (spec §5.5, issue "Sign-in").
 */
import { LitElement } from 'lit';
import { Api } from './lib/api.js';
import { clearSession, loadSession, saveSession, type StoredSession } from './lib/session.js';

let current: StoredSession | null = loadSession(window.localStorage);

export function session(): StoredSession | null {
  return current;
}

export function setSession(s: StoredSession | null): void {
  current = s;
  if (s) saveSession(window.localStorage, s);
  else clearSession(window.localStorage);
  window.dispatchEvent(new CustomEvent('wf-session'));
}

/** Pushes (or replaces) a history entry and tells the router. */
export function navigate(path: string, replace = false): void {
  if (replace) window.history.replaceState({}, '', path);
  else if (window.location.pathname + window.location.search !== path) window.history.pushState({}, '', path);
  window.dispatchEvent(new CustomEvent('wf-navigate', { detail: path }));
}

export const api = new Api({
  fetch: (input, init) => window.fetch(input, init),
  token: () => current?.token ?? null,
  onUnauthorized: () => {
    if (!current) return;
    setSession(null);
    navigate('/login', true);
  },
});

/** Components render into the light DOM: one global stylesheet, and cytoscape gets plain containers. */
export class LightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}

/** A transient message at the bottom of the page. */
export function toast(message: string, kind: 'info' | 'error' = 'info'): void {
  window.dispatchEvent(new CustomEvent('wf-toast', { detail: { message, kind } }));
}
