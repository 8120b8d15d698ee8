/**
 * <wf-run-dialog>: asks where and how to run a workflow (an approved workspace from GET /api/workspaces, or a
 * typed path; read-only or write), starts it with POST /api/workflow-runs and opens the run page.
 */
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { errorMessage } from '../lib/api.js';
import { api, LightElement, navigate } from '../state.js';
import type { Workflow, Workspace } from '../types.js';

@customElement('wf-run-dialog')
export class WfRunDialog extends LightElement {
  @property({ attribute: false }) workflow: Workflow | undefined;
  @state() private workspaces: Workspace[] = [];
  @state() private path = '';
  @state() private write = false;
  @state() private error = '';
  @state() private busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void api
      .get<Workspace[]>('/api/workspaces')
      .then((w) => {
        this.workspaces = Array.isArray(w) ? w : [];
        if (!this.path && this.workspaces[0]) this.path = this.workspaces[0].path;
      })
      .catch(() => (this.workspaces = []));
  }

  override firstUpdated(): void {
    (this.querySelector('dialog') as HTMLDialogElement | null)?.showModal();
  }

  private close(): void {
    this.dispatchEvent(new CustomEvent('close', { bubbles: true, composed: true }));
  }

  private async start(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    if (!this.workflow) return;
    if (!this.path.trim()) {
      this.error = 'Choose or type the workspace (repository path) to run against.';
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const r = await api.post<{ run_id: string }>('/api/workflow-runs', { workflow_id: this.workflow.id, workspace_path: this.path.trim(), write: this.write });
      this.close();
      navigate(`/workflow-runs/${encodeURIComponent(r.run_id)}`);
    } catch (err) {
      this.error = errorMessage(err);
    } finally {
      this.busy = false;
    }
  }

  override render(): unknown {
    return html`
      <dialog class="dialog" aria-labelledby="run-dialog-title" @cancel=${(e: Event) => (e.preventDefault(), this.close())}>
        <form @submit=${this.start}>
          <h2 id="run-dialog-title">Run “${this.workflow?.name ?? ''}”</h2>
          <label class="field"><span>Workspace</span>
            <input name="workspace" list="wf-workspace-list" .value=${this.path} placeholder="/path/to/repository"
              @input=${(e: InputEvent) => (this.path = (e.target as HTMLInputElement).value)} required />
            <datalist id="wf-workspace-list">${this.workspaces.map((w) => html`<option value=${w.path}>${w.label || w.path}</option>`)}</datalist>
            <small class="hint">${this.workspaces.length ? `${this.workspaces.length} approved workspace(s) offered; a path under the codebases folder is approved too.` : 'No workspace registered yet: approve one under Settings → Workspaces, or type a path under the codebases folder.'}</small>
          </label>
          ${this.workspaces.length
            ? html`<div class="chip-row" role="group" aria-label="Approved workspaces">
                ${this.workspaces.map((w) => html`<button type="button" class="chip ${w.path === this.path ? 'chip-on' : ''}" @click=${() => (this.path = w.path)}>${w.label || w.path}</button>`)}
              </div>`
            : nothing}
          <fieldset class="field">
            <legend>Mode</legend>
            <label class="radio"><input type="radio" name="mode" value="read" .checked=${!this.write} @change=${() => (this.write = false)} /> Read-only <small class="hint">the working copy is never delivered</small></label>
            <label class="radio"><input type="radio" name="mode" value="write" .checked=${this.write} @change=${() => (this.write = true)} /> Write <small class="hint">changes are delivered as a pull request</small></label>
          </fieldset>
          ${this.error ? html`<p class="form-error" role="alert">${this.error}</p>` : nothing}
          <div class="dialog-actions">
            <button type="button" class="btn" @click=${this.close}>Cancel</button>
            <button type="submit" class="btn btn-primary" ?disabled=${this.busy}>Start run</button>
          </div>
        </form>
      </dialog>
    `;
  }
}
