/**
 * <wf-settings>: /settings/providers|skills|connectors|users|workspaces. Secrets (provider API keys, connector
 * tokens) are write-only: the forms send them, lists only say whether one is set. Users is admin-only.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { errorMessage } from '../lib/api.js';
import { formatTime } from '../lib/format.js';
import { SETTINGS_SECTIONS, type SettingsSection } from '../lib/routes.js';
import { api, LightElement, session, toast } from '../state.js';

type Row = Record<string, unknown> & { id: string };

const TITLES: Record<SettingsSection, { title: string; intro: string; endpoint: string }> = {
  providers: { title: 'Model providers', intro: 'Endpoints agents use for models: their base URL and API key become the agent process environment.', endpoint: '/api/model-providers' },
  skills: { title: 'Skills', intro: 'Reusable prompt fragments attached to agent nodes, applied before their system instructions.', endpoint: '/api/skills' },
  connectors: { title: 'Connectors', intro: 'Integrations such as GitHub for pull requests. Tokens are stored as secrets and never shown again.', endpoint: '/api/connectors' },
  users: { title: 'Users', intro: 'Local accounts. Admins manage users; operators build and run workflows.', endpoint: '/api/users' },
  workspaces: { title: 'Approved workspaces', intro: 'Repositories runs may use. Paths under the codebases folder of the home are approved as well.', endpoint: '/api/workspaces' },
};

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const list = (v: string): string[] => v.split(',').map((s) => s.trim()).filter(Boolean);

@customElement('wf-settings')
export class WfSettings extends LightElement {
  @property() section: SettingsSection = 'providers';
  @state() private rows: Row[] = [];
  @state() private loading = true;
  @state() private error = '';
  @state() private formError = '';
  private loadedSection = '';

  override willUpdate(): void {
    if (this.section !== this.loadedSection) {
      this.loadedSection = this.section;
      void this.load();
    }
  }

  private get adminOnlyBlocked(): boolean {
    return this.section === 'users' && session()?.user.role !== 'admin';
  }

  private async load(): Promise<void> {
    this.loading = true;
    this.error = '';
    this.formError = '';
    this.rows = [];
    if (this.adminOnlyBlocked) {
      this.loading = false;
      return;
    }
    try {
      const r = await api.get<Row[]>(TITLES[this.section].endpoint);
      this.rows = (Array.isArray(r) ? r : []).map((x) => ({ ...x, id: str(x.id ?? x.path) }));
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
  }

  private async create(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const fd = new FormData(form);
    const v = (k: string) => str(fd.get(k)).trim();
    let body: Record<string, unknown>;
    try {
      switch (this.section) {
        case 'providers':
          body = { name: v('name'), type: v('type'), base_url: v('base_url') || null, models: list(v('models')) };
          if (v('api_key')) body.api_key = v('api_key');
          break;
        case 'skills':
          body = { name: v('name'), description: v('description'), compatible_roles: list(v('compatible_roles')), prompt_template: str(fd.get('prompt_template')) };
          break;
        case 'connectors':
          body = { name: v('name'), type: v('type'), config: v('config') ? JSON.parse(v('config')) : {} };
          if (v('token')) body.token = v('token');
          break;
        case 'users':
          body = { username: v('username'), password: str(fd.get('password')), role: v('role') };
          break;
        case 'workspaces':
          body = { path: v('path') };
          if (v('label')) body.label = v('label');
          break;
      }
    } catch {
      this.formError = 'The configuration must be a JSON object, e.g. {"owner": "acme"}.';
      return;
    }
    try {
      await api.post(TITLES[this.section].endpoint, body);
      form.reset();
      this.formError = '';
      toast('Saved');
      await this.load();
    } catch (err) {
      this.formError = errorMessage(err);
    }
  }

  private async removeRow(row: Row): Promise<void> {
    const name = str(row.name ?? row.username ?? row.path);
    if (!window.confirm(`Delete ${name}?`)) return;
    try {
      if (this.section === 'workspaces') await api.request('DELETE', `/api/workspaces/${encodeURIComponent(row.id)}`);
      else await api.del(`${TITLES[this.section].endpoint}/${encodeURIComponent(row.id)}`);
      await this.load();
    } catch (e) {
      toast(`Delete: ${errorMessage(e)}`, 'error');
    }
  }

  private field(name: string, label: string, opts: { type?: string; required?: boolean; placeholder?: string; hint?: string; autocomplete?: string } = {}): TemplateResult {
    const id = `set-${name}`;
    return html`<div class="field"><label for=${id}>${label}${opts.required ? html` <span class="req" aria-hidden="true">*</span>` : nothing}</label>
      <input id=${id} name=${name} type=${opts.type ?? 'text'} ?required=${opts.required} placeholder=${opts.placeholder ?? ''} autocomplete=${opts.autocomplete ?? 'off'} />
      ${opts.hint ? html`<p class="hint">${opts.hint}</p>` : nothing}</div>`;
  }

  private form(): TemplateResult {
    switch (this.section) {
      case 'providers':
        return html`${this.field('name', 'Name', { required: true })}
          <div class="field"><label for="set-type">Type</label><select id="set-type" name="type">
            <option value="local">Local-hosted</option><option value="openai-compatible">OpenAI-compatible</option><option value="anthropic-compatible">Anthropic-compatible</option></select></div>
          ${this.field('base_url', 'Base URL', { placeholder: 'https://api.example.com/v1' })}
          ${this.field('models', 'Models', { placeholder: 'comma separated' })}
          ${this.field('api_key', 'API key', { type: 'password', hint: 'Write-only: stored as a secret, never shown again.', autocomplete: 'new-password' })}`;
      case 'skills':
        return html`${this.field('name', 'Name', { required: true })}${this.field('description', 'Description')}${this.field('compatible_roles', 'Compatible roles', { placeholder: 'comma separated' })}
          <div class="field"><label for="set-prompt">Prompt template <span class="req" aria-hidden="true">*</span></label><textarea id="set-prompt" name="prompt_template" rows="4" required></textarea></div>`;
      case 'connectors':
        return html`${this.field('name', 'Name', { required: true })}${this.field('type', 'Type', { required: true, placeholder: 'github, gitlab, slack, webhook' })}
          <div class="field"><label for="set-config">Configuration (JSON)</label><textarea id="set-config" name="config" rows="3" class="mono" placeholder='{"owner": "acme"}'></textarea></div>
          ${this.field('token', 'Token', { type: 'password', hint: 'Write-only: stored as a secret, never shown again.', autocomplete: 'new-password' })}`;
      case 'users':
        return html`${this.field('username', 'User name', { required: true })}${this.field('password', 'Password', { type: 'password', required: true, autocomplete: 'new-password' })}
          <div class="field"><label for="set-role">Role</label><select id="set-role" name="role"><option value="operator">Operator</option><option value="admin">Admin</option></select></div>`;
      case 'workspaces':
        return html`${this.field('path', 'Repository path', { required: true, placeholder: '/home/me/src/project' })}${this.field('label', 'Label')}`;
    }
  }

  private cells(r: Row): TemplateResult {
    switch (this.section) {
      case 'providers':
        return html`<td><strong>${str(r.name)}</strong></td><td>${str(r.type)}</td><td class="mono ellipsis">${str(r.base_url) || '—'}</td>
          <td>${r.has_api_key ? 'API key set' : html`<span class="muted">no key</span>`}</td><td><span class="badge">${str(r.status)}</span></td>`;
      case 'skills':
        return html`<td><strong>${str(r.name)}</strong>${r.builtin_key ? html` <span class="badge">built-in</span>` : nothing}</td><td class="ellipsis">${str(r.description)}</td>
          <td>${Array.isArray(r.compatible_roles) ? r.compatible_roles.join(', ') : ''}</td>`;
      case 'connectors':
        return html`<td><strong>${str(r.name)}</strong></td><td>${str(r.type)}</td><td>${r.has_token ? 'token set' : html`<span class="muted">no token</span>`}</td><td><span class="badge">${str(r.status)}</span></td>`;
      case 'users':
        return html`<td><strong>${str(r.username)}</strong>${r.id === session()?.user.id ? html` <span class="muted">(you)</span>` : nothing}</td><td>${str(r.role)}</td><td>${formatTime(str(r.created_at))}</td>`;
      case 'workspaces':
        return html`<td class="mono">${str(r.path)}</td><td>${str(r.label)}</td><td>${formatTime(str(r.created_at))}</td>`;
    }
  }

  private heads(): string[] {
    return { providers: ['Name', 'Type', 'Base URL', 'Key', 'Status'], skills: ['Name', 'Description', 'Roles'], connectors: ['Name', 'Type', 'Token', 'Status'], users: ['User', 'Role', 'Created'], workspaces: ['Path', 'Label', 'Approved'] }[this.section];
  }

  override render(): unknown {
    const meta = TITLES[this.section] ?? TITLES.providers;
    return html`
      <div class="settings">
        <nav class="settings-nav" aria-label="Settings">
          <h2>Settings</h2>
          ${SETTINGS_SECTIONS.map((s) => html`<a href="/settings/${s}" class="settings-link ${s === this.section ? 'active' : ''}" aria-current=${s === this.section ? 'page' : 'false'}>${TITLES[s].title}</a>`)}
        </nav>
        <section class="settings-body">
          <h1>${meta.title}</h1>
          <p class="muted">${meta.intro}</p>
          ${this.adminOnlyBlocked
            ? html`<div class="card empty"><p>User management is for administrators only.</p></div>`
            : html`
                ${this.error ? html`<p class="form-error" role="alert">${this.error}</p>` : nothing}
                <div class="card table-card">
                  ${this.loading
                    ? html`<p class="muted pad">Loading…</p>`
                    : this.rows.length === 0
                      ? html`<p class="muted pad">Nothing here yet.</p>`
                      : html`<table class="table"><thead><tr>${this.heads().map((h) => html`<th scope="col">${h}</th>`)}<th scope="col" class="actions-col"><span class="sr-only">Actions</span></th></tr></thead>
                          <tbody>${this.rows.map((r) => html`<tr>${this.cells(r)}<td class="actions-cell"><button class="btn btn-sm btn-danger-ghost" @click=${() => this.removeRow(r)}>Delete</button></td></tr>`)}</tbody></table>`}
                </div>
                <form class="card settings-form" @submit=${this.create} aria-label="Add ${meta.title}">
                  <h2>Add</h2>
                  <div class="form-grid">${this.form()}</div>
                  ${this.formError ? html`<p class="form-error" role="alert">${this.formError}</p>` : nothing}
                  <button class="btn btn-primary" type="submit">Add</button>
                </form>`}
        </section>
      </div>
    `;
  }
}
