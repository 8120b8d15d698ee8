/**
 * <wf-run-memory>: a run's memory entries (GET /api/workflow-runs/{id}/memory), sensitive values masked (the
 * server masks them; the view masks again so a value marked sensitive is never shown), and Clear memory.
 */
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { errorMessage } from '../lib/api.js';
import { maskValue } from '../lib/format.js';
import { api, LightElement, toast } from '../state.js';

interface MemoryEntry {
  id: string;
  node_id: string;
  key: string;
  value: string;
  scope: string;
  sensitivity: string;
  created_at?: string;
}

@customElement('wf-run-memory')
export class WfRunMemory extends LightElement {
  @property() runId = '';
  @state() private entries: MemoryEntry[] | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const m = await api.get<MemoryEntry[] | { entries: MemoryEntry[] }>(`/api/workflow-runs/${encodeURIComponent(this.runId)}/memory`);
      this.entries = Array.isArray(m) ? m : (m?.entries ?? []);
    } catch (e) {
      toast(`Memory: ${errorMessage(e)}`, 'error');
      this.entries = [];
    }
  }

  private async clear(): Promise<void> {
    if (!window.confirm('Clear all memory entries of this run?')) return;
    try {
      await api.del(`/api/workflow-runs/${encodeURIComponent(this.runId)}/memory`);
      await this.load();
    } catch (e) {
      toast(`Memory: ${errorMessage(e)}`, 'error');
    }
  }

  override render(): unknown {
    const list = this.entries;
    return html`<section class="card memory-card" aria-label="Run memory">
      <div class="panel-head"><h2>Memory</h2><button class="btn btn-sm btn-danger-ghost" @click=${this.clear} ?disabled=${!list?.length}>Clear memory</button></div>
      ${!list
        ? html`<p class="muted">Loading…</p>`
        : list.length === 0
          ? html`<p class="muted">No memory entries.</p>`
          : html`<table class="table"><thead><tr><th>Key</th><th>Value</th><th>Scope</th><th>Node</th></tr></thead><tbody>
              ${list.map(
                (m) => html`<tr><td class="mono">${m.key}</td>
                  <td class="mono ${m.sensitivity === 'sensitive' ? 'masked' : ''}">${maskValue(m.value, m.sensitivity)}${m.sensitivity === 'sensitive' ? html` <span class="badge">sensitive</span>` : nothing}</td>
                  <td>${m.scope}</td><td class="mono">${m.node_id}</td></tr>`,
              )}
            </tbody></table>`}
    </section>`;
  }
}
