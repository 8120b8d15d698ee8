/**
 * <wf-app>: the app shell. Owns the router (the route table of lib/routes.ts), the sign-in guard, the top bar
 * and the toast area. Views are light-DOM elements in their own folders.
 */
import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { Router } from '@lit-labs/router';
import { ROUTE_TABLE, type RouteEntry } from '../lib/routes.js';
import { api, LightElement, navigate, session, setSession } from '../state.js';
import '../login-view/login-view.js';
import '../workflows-view/workflows-view.js';
import '../builder-view/builder-view.js';
import '../run-view/run-view.js';
import '../settings-view/settings-view.js';
import '../not-found-view/not-found-view.js';

@customElement('wf-app')
export class WfApp extends LightElement {
  @state() private toasts: Array<{ id: number; message: string; kind: string }> = [];
  private toastSeq = 0;

  private readonly router = new Router(
    this,
    ROUTE_TABLE.map((r) => ({ path: r.path, render: (p: Record<string, string | undefined>) => this.renderRoute(r, p) })),
    { fallback: { render: () => this.page('Not found', html`<wf-not-found></wf-not-found>`) } },
  );

  private readonly onNavigate = (e: Event) => void this.router.goto((e as CustomEvent<string>).detail.split('?')[0]!);
  private readonly onSession = () => this.requestUpdate();
  private readonly onToast = (e: Event) => {
    const { message, kind } = (e as CustomEvent<{ message: string; kind: string }>).detail;
    const id = ++this.toastSeq;
    this.toasts = [...this.toasts, { id, message, kind }];
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t.id !== id)), kind === 'error' ? 8000 : 4000);
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('wf-navigate', this.onNavigate);
    window.addEventListener('wf-session', this.onSession);
    window.addEventListener('wf-toast', this.onToast);
  }
  override disconnectedCallback(): void {
    window.removeEventListener('wf-navigate', this.onNavigate);
    window.removeEventListener('wf-session', this.onSession);
    window.removeEventListener('wf-toast', this.onToast);
    super.disconnectedCallback();
  }

  private renderRoute(r: RouteEntry, p: Record<string, string | undefined>): unknown {
    const s = session();
    if (!r.public && !s) {
      queueMicrotask(() => navigate('/login', true));
      return nothing;
    }
    const params = { ...p, ...r.fixed } as Record<string, string>;
    switch (r.view) {
      case 'login':
        return html`<wf-login></wf-login>`;
      case 'workflows':
        return this.page(r.title, html`<wf-workflows></wf-workflows>`);
      case 'builder':
        return this.page(r.title, html`<wf-builder .workflowId=${params.id ?? ''}></wf-builder>`, true);
      case 'run':
        return this.page(r.title, html`<wf-run-view .runId=${params.id ?? ''}></wf-run-view>`, true);
      case 'settings':
        return this.page(r.title, html`<wf-settings .section=${params.section ?? 'providers'}></wf-settings>`);
      default:
        return this.page('Not found', html`<wf-not-found></wf-not-found>`);
    }
  }

  private page(title: string, body: unknown, wide = false): unknown {
    document.title = `${title} · wfctl`;
    const s = session();
    const path = window.location.pathname;
    const navLink = (href: string, label: string, active: boolean) =>
      html`<a href=${href} class="nav-link ${active ? 'active' : ''}" aria-current=${active ? 'page' : 'false'}>${label}</a>`;
    return html`
      <header class="topbar">
        <a href="/" class="brand" aria-label="wfctl home"><span class="brand-mark">wf</span>ctl</a>
        <nav aria-label="Main">
          ${navLink('/', 'Workflows', path === '/' || path.startsWith('/workflow'))}
          ${navLink('/settings/providers', 'Settings', path.startsWith('/settings'))}
        </nav>
        <div class="topbar-user">
          ${s
            ? html`<span class="user-chip" title="Signed in as ${s.user.username}">${s.user.username} <small>${s.user.role}</small></span>
                <button class="btn btn-ghost btn-sm" @click=${this.logout}>Sign out</button>`
            : nothing}
        </div>
      </header>
      <main class=${wide ? 'main main-wide' : 'main'}>${body}</main>
      <div class="toasts" role="status" aria-live="polite">
        ${this.toasts.map((t) => html`<div class="toast toast-${t.kind}">${t.message}</div>`)}
      </div>
    `;
  }

  private async logout(): Promise<void> {
    try {
      await api.post('/api/auth/logout');
    } catch {
      /* the token may already be gone: signing out locally is what matters */
    }
    setSession(null);
    navigate('/login');
  }

  override render(): unknown {
    return this.router.outlet();
  }
}
