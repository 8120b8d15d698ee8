/**
 * <wf-workflows>: the Workflows page. Tabs My Workflows / Templates; a row click expands the inline history of
 * the 20 latest runs (clicks in the actions cell do not); the active-run lock disables Run, Edit and Publish;
 * templates are copied with Use template, which opens the copy in the builder.
 */
import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { errorMessage } from '../lib/api.js';
import { formatTime, isActive, lockState, relativeTime } from '../lib/format.js';
import { statusStyle } from '../lib/palette.js';
import { api, LightElement, navigate, toast } from '../state.js';
import type { RunSummary, Workflow } from '../types.js';
import '../run-dialog/run-dialog.js';

export const HISTORY_LIMIT = 20;
/** How often the list refreshes while any row is locked, so the lock lifts without a reload. */
const LIST_REFRESH_MS = 3000;

/** A status badge (shared by the run page). */
export function statusBadge(status: string | null | undefined): unknown {
  const s = statusStyle(status);
  return html`<span class="badge" data-status=${status ?? ''} style="color:${s.colour};background:${s.background}">${s.label}</span>`;
}

@customElement('wf-workflows')
export class WfWorkflows extends LightElement {
  @state() private tab: 'user' | 'template' = 'user';
  @state() private items: Workflow[] = [];
  @state() private loading = true;
  @state() private error = '';
  @state() private expanded = new Set<string>();
  @state() private history = new Map<string, RunSummary[] | 'loading' | string>();
  @state() private runTarget: Workflow | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    const t = new URLSearchParams(window.location.search).get('tab');
    if (t === 'templates') this.tab = 'template';
    void this.load();
  }
  override disconnectedCallback(): void {
    clearTimeout(this.timer);
    super.disconnectedCallback();
  }

  private async load(): Promise<void> {
    clearTimeout(this.timer);
    try {
      const list = await api.get<Workflow[]>(`/api/workflows?kind=${this.tab}`);
      this.items = Array.isArray(list) ? list : [];
      this.error = '';
      for (const id of this.expanded) void this.loadHistory(id);
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
    if (this.isConnected && this.items.some((w) => isActive(w.active_run?.status))) {
      this.timer = setTimeout(() => void this.load(), LIST_REFRESH_MS);
    }
  }

  private async loadHistory(id: string): Promise<void> {
    if (!this.history.has(id)) this.history = new Map(this.history).set(id, 'loading');
    try {
      const runs = await api.get<RunSummary[]>(`/api/workflows/${encodeURIComponent(id)}/runs?limit=${HISTORY_LIMIT}`);
      this.history = new Map(this.history).set(id, (Array.isArray(runs) ? runs : []).slice(0, HISTORY_LIMIT));
    } catch (e) {
      this.history = new Map(this.history).set(id, errorMessage(e));
    }
  }

  private setTab(tab: 'user' | 'template'): void {
    if (tab === this.tab) return;
    this.tab = tab;
    this.items = [];
    this.loading = true;
    this.expanded = new Set();
    window.history.replaceState({}, '', tab === 'template' ? '/?tab=templates' : '/');
    void this.load();
  }

  private toggle(w: Workflow): void {
    const next = new Set(this.expanded);
    if (next.has(w.id)) next.delete(w.id);
    else {
      next.add(w.id);
      void this.loadHistory(w.id);
    }
    this.expanded = next;
  }

  private onRowClick(e: MouseEvent, w: Workflow): void {
    // Clicks inside the actions cell (buttons, links, their padding) never expand the row.
    if ((e.target as HTMLElement).closest('.actions-cell, a, button')) return;
    this.toggle(w);
  }

  private onRowKey(e: KeyboardEvent, w: Workflow): void {
    if ((e.target as HTMLElement) !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.toggle(w);
    }
  }

  private async act(label: string, fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      toast(`${label}: ${errorMessage(e)}`, 'error');
      await this.load();
    }
  }

  private publish(w: Workflow): Promise<void> {
    return this.act('Publish', async () => {
      await api.post(`/api/workflows/${encodeURIComponent(w.id)}/publish`);
      toast(`“${w.name}” published as a template`);
    });
  }

  private removeWorkflow(w: Workflow): Promise<void> {
    if (!window.confirm(`Delete “${w.name}”? Its runs stay in the audit trail.`)) return Promise.resolve();
    return this.act('Delete', async () => {
      await api.del(`/api/workflows/${encodeURIComponent(w.id)}`);
      await this.load();
    });
  }

  private use(w: Workflow): Promise<void> {
    return this.act('Use template', async () => {
      const copy = await api.post<Workflow>(`/api/workflows/${encodeURIComponent(w.id)}/use`);
      navigate(`/workflows/${encodeURIComponent(copy.id)}/edit`);
    });
  }

  private renderActions(w: Workflow): unknown {
    if (w.kind === 'template' || this.tab === 'template') {
      return html`<button class="btn btn-primary btn-sm" @click=${() => this.use(w)}>Use template</button>`;
    }
    const lock = lockState(w.active_run);
    return html`
      <button class="btn btn-primary btn-sm" data-action="run" ?disabled=${lock.locked} @click=${() => (this.runTarget = w)}>${lock.runLabel}</button>
      <span class="tooltip-wrap" title=${lock.editTitle ?? 'Edit in the builder'}>
        <button class="btn btn-sm" data-action="edit" ?disabled=${lock.locked} title=${lock.editTitle ?? 'Edit in the builder'}
          @click=${() => navigate(`/workflows/${encodeURIComponent(w.id)}/edit`)}>Edit</button>
      </span>
      <button class="btn btn-sm" data-action="publish" ?disabled=${lock.locked} title=${lock.locked ? 'Cannot publish while a run is active' : 'Copy as a shared template'}
        @click=${() => this.publish(w)}>Publish as template</button>
      <button class="btn btn-sm btn-danger-ghost" data-action="delete" ?disabled=${lock.locked} aria-label="Delete ${w.name}" title="Delete"
        @click=${() => this.removeWorkflow(w)}>Delete</button>
      ${lock.locked && w.active_run ? html`<a class="link-sm" href="/workflow-runs/${encodeURIComponent(w.active_run.id)}">View run</a>` : nothing}
    `;
  }

  private renderHistory(w: Workflow): unknown {
    const h = this.history.get(w.id);
    let body: unknown;
    if (h === undefined || h === 'loading') body = html`<p class="muted">Loading runs…</p>`;
    else if (typeof h === 'string') body = html`<p class="form-error">${h}</p>`;
    else if (!h.length) body = html`<p class="muted">No runs yet.</p>`;
    else
      body = html`<ol class="run-history">
        ${h.map(
          (r) => html`<li class="run-history-item">
            ${statusBadge(r.status)}
            <time datetime=${r.started_at ?? r.created_at ?? ''} title=${relativeTime(r.started_at ?? r.created_at)}>${formatTime(r.started_at ?? r.created_at)}</time>
            <span class="muted mono ellipsis" title=${r.workspace_path ?? ''}>${r.workspace_path ?? ''}</span>
            <a href="/workflow-runs/${encodeURIComponent(r.id)}">Open run ${r.id.slice(0, 8)}</a>
          </li>`,
        )}
      </ol>`;
    return html`<tr class="history-row"><td colspan="4"><div class="history-panel" aria-label="Recent runs of ${w.name}">${body}</div></td></tr>`;
  }

  override render(): unknown {
    const user = this.tab === 'user';
    return html`
      <div class="page-head">
        <div>
          <h1>Workflows</h1>
          <p class="muted">Graphs of agents, gates and notifications you run against a repository.</p>
        </div>
        ${user ? html`<a class="btn btn-primary" href="/workflows/new">New workflow</a>` : nothing}
      </div>
      <div class="tabs" role="tablist" aria-label="Workflow lists">
        <button role="tab" class="tab" id="tab-user" aria-selected=${user} @click=${() => this.setTab('user')}>My Workflows</button>
        <button role="tab" class="tab" id="tab-template" aria-selected=${!user} @click=${() => this.setTab('template')}>Templates</button>
      </div>
      <section class="card table-card" role="tabpanel" aria-labelledby=${user ? 'tab-user' : 'tab-template'}>
        ${this.error ? html`<p class="form-error" role="alert">${this.error}</p>` : nothing}
        ${this.loading
          ? html`<p class="muted pad">Loading…</p>`
          : this.items.length === 0
            ? html`<div class="empty"><p>${user ? 'No workflows yet.' : 'No templates.'}</p>${user ? html`<p class="muted">Start from a template, or <a href="/workflows/new">draw a new workflow</a>.</p>` : nothing}</div>`
            : html`<table class="table workflows-table">
                <thead><tr><th scope="col">Name</th><th scope="col">Nodes</th><th scope="col">${user ? 'Status' : 'Updated'}</th><th scope="col" class="actions-col">Actions</th></tr></thead>
                <tbody>
                  ${this.items.map((w) => {
                    const open = this.expanded.has(w.id);
                    return html`
                      <tr class="workflow-row ${open ? 'open' : ''}" data-id=${w.id} tabindex="0" aria-expanded=${open}
                        @click=${(e: MouseEvent) => this.onRowClick(e, w)} @keydown=${(e: KeyboardEvent) => this.onRowKey(e, w)}>
                        <td><span class="chevron" aria-hidden="true">${open ? '▾' : '▸'}</span> <strong>${w.name}</strong>
                          ${w.description ? html`<div class="muted small ellipsis">${w.description}</div>` : nothing}</td>
                        <td class="muted">${w.graph?.nodes?.length ?? '—'}</td>
                        <td>${user ? (w.active_run ? statusBadge(w.active_run.status) : html`<span class="muted">Idle</span>`) : html`<span class="muted">${relativeTime(w.updated_at)}</span>`}</td>
                        <td class="actions-cell">${this.renderActions(w)}</td>
                      </tr>
                      ${open ? this.renderHistory(w) : nothing}
                    `;
                  })}
                </tbody>
              </table>`}
      </section>
      ${this.runTarget ? html`<wf-run-dialog .workflow=${this.runTarget} @close=${() => (this.runTarget = undefined)}></wf-run-dialog>` : nothing}
    `;
  }
}
