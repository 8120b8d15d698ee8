/**
 * The UI's route table as data (design.md §11). The app shell feeds it to @lit-labs/router; matchRoute() is the
 * same table's plain matcher, used by the shell's sign-in guard and by the unit tests (Node has no URLPattern).
 * /runs and /approvals are deliberately absent (the spec removed them): they fall through to the not-found view.
 */

export type ViewName = 'login' | 'workflows' | 'builder' | 'run' | 'settings' | 'not-found';
export const SETTINGS_SECTIONS = ['providers', 'skills', 'connectors', 'users', 'workspaces'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export interface RouteEntry {
  /** URLPattern pathname syntax (`:name` parameters only). */
  path: string;
  view: ViewName;
  /** Page title shown in the tab. */
  title: string;
  /** Reachable without signing in. */
  public?: boolean;
  /** Fixed parameters the view receives (settings sections). */
  fixed?: Record<string, string>;
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  { path: '/login', view: 'login', title: 'Sign in', public: true },
  { path: '/', view: 'workflows', title: 'Workflows' },
  { path: '/workflows/new', view: 'builder', title: 'New workflow' },
  { path: '/workflows/:id/edit', view: 'builder', title: 'Edit workflow' },
  { path: '/workflow-runs/:id', view: 'run', title: 'Run' },
  ...SETTINGS_SECTIONS.map((s): RouteEntry => ({ path: `/settings/${s}`, view: 'settings', title: `Settings: ${s}`, fixed: { section: s } })),
];

export interface RouteMatch {
  route: RouteEntry | undefined;
  view: ViewName;
  params: Record<string, string>;
}

/** The first route whose pattern matches `pathname` (a trailing slash is ignored), or the not-found view. */
export function matchRoute(pathname: string, table: readonly RouteEntry[] = ROUTE_TABLE): RouteMatch {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const parts = clean.split('/');
  for (const route of table) {
    const pat = route.path.split('/');
    if (pat.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pat.length && ok; i++) {
      const p = pat[i]!;
      const v = parts[i]!;
      if (p.startsWith(':')) {
        if (v === '') ok = false;
        else params[p.slice(1)] = safeDecode(v);
      } else if (p !== v) ok = false;
    }
    if (ok) return { route, view: route.view, params: { ...params, ...route.fixed } };
  }
  return { route: undefined, view: 'not-found', params: {} };
}

/** Whether a signed-out visitor may see `pathname` (otherwise the shell sends them to /login). */
export function isPublicPath(pathname: string): boolean {
  return matchRoute(pathname).route?.public === true;
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
