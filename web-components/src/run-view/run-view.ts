/**
 * <wf-run-view>: the live run page. Step list (folds to a 40 px strip), the node graph (lane colours by depth,
 * status per node), the log drawer with the selected node's agent messages (drag-resizable 280–700 px), the run
 * log panel at the bottom (80–500 px, can be hidden), approvals, cancel / resume, memory, pull request link.
 * Re-reads the run every 2 s while it is active and listens to the SSE stream for faster updates.
 */
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Graph } from '../../../core/graph.js';
import { errorMessage } from '../lib/api.js';
import { elapsed, formatTime, isActive } from '../lib/format.js';
import { latestStepStatus, safeDepths } from '../lib/graph-map.js';
import { laneColour, statusStyle } from '../lib/palette.js';
import { DRAWER, LOG_PANEL, STEP_LIST, clampSize, dragSize, keySize, type Bounds } from '../lib/resize.js';
import { addMessages, agentMessageFrom, triggersRefresh, type AgentMessage } from '../lib/run-events.js';
import { typeLabel } from '../lib/nodes.js';
import { api, LightElement, toast } from '../state.js';
import type { LogEntry, RunDetail, StepRun } from '../types.js';
import { statusBadge } from '../workflows-view/workflows-view.js';
import { RunStream } from './run-stream.js';
import '../graph-view/graph-view.js';
import '../approval-panel/approval-panel.js';
import '../run-memory/run-memory.js';

/** The spec's refresh interval while a run is active. */
export const REFRESH_MS = 2000;

@customElement('wf-run-view')
export class WfRunView extends LightElement {
  @property() runId = '';
  @state() private run: RunDetail | undefined;
  @state() private graph: Graph | undefined;
  @state() private logs: LogEntry[] = [];
  @state() private error = '';
  @state() private selected: string | undefined;
  @state() private stepsFolded = false;
  @state() private drawerWidth = DRAWER.initial;
  @state() private logHeight = LOG_PANEL.initial;
  @state() private logHidden = false;
  @state() private messages = new Map<string, AgentMessage[]>();
  @state() private showMemory = false;
  /** Number of completed re-reads (exposed as data-refreshes for tests and debugging). */
  @state() private refreshes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stream: RunStream | undefined;
  private loadedFor = '';
  private inflight = false;
  private soon: ReturnType<typeof setTimeout> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.reload();
  }

  override disconnectedCallback(): void {
    this.teardown();
    super.disconnectedCallback();
  }

  override willUpdate(): void {
    if (this.runId && this.runId !== this.loadedFor && this.isConnected && this.loadedFor) void this.reload();
  }

  private teardown(): void {
    clearTimeout(this.timer);
    clearTimeout(this.soon);
    this.stream?.stop();
    this.stream = undefined;
  }

  private async reload(): Promise<void> {
    this.teardown();
    this.loadedFor = this.runId;
    this.run = undefined;
    this.graph = undefined;
    this.messages = new Map();
    this.selected = undefined;
    await this.refresh();
    const run = this.run as RunDetail | undefined;
    if (run && isActive(run.status)) {
      this.stream = new RunStream(this.runId, (ev) => this.onStreamEvent(ev.event, ev.data, ev.id));
      this.stream.start();
    }
  }

  /** Re-reads the run and its logs; schedules the next read in 2 s while the run is active. */
  private async refresh(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.runId || this.inflight) return;
    this.inflight = true;
    const id = encodeURIComponent(this.runId);
    try {
      const [run, logs] = await Promise.all([api.get<RunDetail>(`/api/workflow-runs/${id}`), api.get<LogEntry[]>(`/api/workflow-runs/${id}/logs`).catch(() => this.logs)]);
      this.run = run;
      this.logs = Array.isArray(logs) ? logs : [];
      if (!this.graph) this.graph = run.graph ?? (await this.workflowGraph(run));
      if (run.graph) this.graph = run.graph;
      this.error = '';
      this.refreshes++;
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.inflight = false;
    }
    if (!this.isConnected || this.loadedFor !== this.runId) return;
    if (this.run && isActive(this.run.status)) this.timer = setTimeout(() => void this.refresh(), REFRESH_MS);
    else if (this.run) this.stream?.stop();
  }

  private async workflowGraph(run: RunDetail): Promise<Graph | undefined> {
    if (!run.workflow_id) return undefined;
    try {
      const wf = await api.get<{ graph: Graph }>(`/api/workflows/${encodeURIComponent(run.workflow_id)}`);
      return wf.graph;
    } catch {
      return undefined;
    }
  }

  private onStreamEvent(name: string, data: string, id?: string): void {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    if (name.startsWith('agent.')) {
      const m = agentMessageFrom(payload, id);
      if (m && name === 'agent.message') this.messages = addMessages(this.messages, [m]);
    }
    if (triggersRefresh(name)) {
      // Coalesce bursts of events into one re-read.
      clearTimeout(this.soon);
      this.soon = setTimeout(() => void this.refresh(), 150);
    }
  }

  private async action(kind: 'cancel' | 'resume'): Promise<void> {
    if (kind === 'cancel' && !window.confirm('Cancel this run? Running agents are stopped.')) return;
    try {
      await api.post(`/api/workflow-runs/${encodeURIComponent(this.runId)}/${kind}`);
      toast(kind === 'cancel' ? 'Run cancelled' : 'Run resumed');
      if (kind === 'resume' && !this.stream) {
        this.stream = new RunStream(this.runId, (ev) => this.onStreamEvent(ev.event, ev.data, ev.id));
        this.stream.start();
      }
    } catch (e) {
      toast(`${kind === 'cancel' ? 'Cancel' : 'Resume'}: ${errorMessage(e)}`, 'error');
    }
    await this.refresh();
  }

  /** Pointer drag on a resize handle; `set` receives the clamped size. */
  private startDrag(e: PointerEvent, axis: 'x' | 'y', start: number, b: Bounds, set: (v: number) => void): void {
    e.preventDefault();
    const handle = e.currentTarget as HTMLElement;
    handle.setPointerCapture(e.pointerId);
    const p0 = axis === 'x' ? e.clientX : e.clientY;
    const move = (ev: PointerEvent) => set(dragSize(start, p0, axis === 'x' ? ev.clientX : ev.clientY, b, -1));
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  }

  private orderedNodes(): Array<{ id: string; label: string; type: string; depth: number }> {
    const g = this.graph;
    if (!g) return [];
    const depth = safeDepths(g);
    return g.nodes
      .map((n, i) => ({ id: n.id, label: n.data?.label || n.id, type: n.type, depth: depth.get(n.id) ?? 0, i }))
      .sort((a, b) => a.depth - b.depth || a.i - b.i);
  }

  private renderSteps(statuses: Record<string, string>): unknown {
    const nodes = this.orderedNodes();
    const folded = this.stepsFolded;
    return html`
      <aside class="steps-panel ${folded ? 'folded' : ''}" style="width:${folded ? STEP_LIST.folded : STEP_LIST.width}px" aria-label="Steps">
        <div class="panel-head">
          ${folded ? nothing : html`<h2>Steps</h2>`}
          <button class="icon-btn" data-action="fold-steps" aria-expanded=${!folded} aria-label=${folded ? 'Expand the step list' : 'Fold the step list'}
            title=${folded ? 'Expand' : 'Fold'} @click=${() => (this.stepsFolded = !folded)}>${folded ? '»' : '«'}</button>
        </div>
        <ol class="step-list">
          ${nodes.map((n) => {
            const st = statusStyle(statuses[n.id]);
            return html`<li>
              <button class="step ${this.selected === n.id ? 'selected' : ''}" data-node=${n.id} title="${n.label}: ${st.label}" @click=${() => (this.selected = n.id)}>
                <span class="lane-dot" style="background:${laneColour(n.depth)}"></span>
                ${folded
                  ? html`<span class="status-dot" style="background:${st.colour}"></span>`
                  : html`<span class="step-text"><span class="step-label">${n.label}</span><span class="muted small">${typeLabel(n.type)} · depth ${n.depth}</span></span>
                      <span class="badge" style="color:${st.colour};background:${st.background}">${st.label}</span>`}
              </button>
            </li>`;
          })}
        </ol>
      </aside>
    `;
  }

  private renderDrawer(): unknown {
    const id = this.selected;
    const node = id ? this.graph?.nodes.find((n) => n.id === id) : undefined;
    const steps: StepRun[] = (this.run?.steps ?? []).filter((s) => s.node_id === id).sort((a, b) => (a.attempt ?? 1) - (b.attempt ?? 1));
    const msgs = id ? (this.messages.get(id) ?? []) : [];
    return html`
      <div class="resize-handle resize-x" role="separator" aria-orientation="vertical" aria-label="Resize the log drawer" tabindex="0"
        aria-valuemin=${DRAWER.min} aria-valuemax=${DRAWER.max} aria-valuenow=${this.drawerWidth}
        @pointerdown=${(e: PointerEvent) => this.startDrag(e, 'x', this.drawerWidth, DRAWER, (v) => (this.drawerWidth = v))}
        @keydown=${(e: KeyboardEvent) => (this.drawerWidth = keySize(this.drawerWidth, e.key, DRAWER, -1))}></div>
      <aside class="drawer" style="width:${this.drawerWidth}px" aria-label="Node log">
        <div class="panel-head"><h2>${node ? node.data.label || node.id : 'Node log'}</h2>
          ${node ? html`<span class="muted small">${typeLabel(node.type)}</span>` : nothing}</div>
        ${!node
          ? html`<p class="muted pad">Select a node in the graph or the step list to see its agent messages.</p>`
          : html`<div class="drawer-body">
              ${steps.length === 0 ? html`<p class="muted">Not started yet.</p>` : nothing}
              ${steps.map(
                (s) => html`<div class="attempt">
                  <div class="attempt-head">${statusBadge(s.status)} <span class="muted small">attempt ${s.attempt ?? 1} · ${formatTime(s.started_at)} · ${elapsed(s.started_at, s.completed_at)}</span></div>
                  ${s.error ? html`<pre class="msg msg-error">${s.error}</pre>` : nothing}
                  ${s.output || s.summary ? html`<details open><summary>Output</summary><pre class="msg">${s.output || s.summary}</pre></details>` : nothing}
                </div>`,
              )}
              <h3 class="small-head">Agent messages</h3>
              ${msgs.length === 0
                ? html`<p class="muted small">No streamed messages${isActive(this.run?.status) ? ' yet' : ' in this session'}.</p>`
                : html`<ol class="messages">${msgs.map((m) => html`<li class="msg-item msg-${m.kind}"><span class="msg-kind">${m.kind}</span><pre class="msg">${m.content}</pre></li>`)}</ol>`}
            </div>`}
      </aside>
    `;
  }

  private renderLogPanel(): unknown {
    if (this.logHidden) {
      return html`<div class="log-collapsed"><button class="btn btn-sm btn-ghost" data-action="show-log" @click=${() => (this.logHidden = false)}>Show run log (${this.logs.length})</button></div>`;
    }
    return html`
      <div class="resize-handle resize-y" role="separator" aria-orientation="horizontal" aria-label="Resize the run log" tabindex="0"
        aria-valuemin=${LOG_PANEL.min} aria-valuemax=${LOG_PANEL.max} aria-valuenow=${this.logHeight}
        @pointerdown=${(e: PointerEvent) => this.startDrag(e, 'y', this.logHeight, LOG_PANEL, (v) => (this.logHeight = v))}
        @keydown=${(e: KeyboardEvent) => (this.logHeight = keySize(this.logHeight, e.key, LOG_PANEL, -1))}></div>
      <section class="log-panel" style="height:${clampSize(this.logHeight, LOG_PANEL)}px" aria-label="Run log">
        <div class="panel-head"><h2>Run log</h2><button class="btn btn-sm btn-ghost" data-action="hide-log" @click=${() => (this.logHidden = true)}>Hide</button></div>
        <ol class="log-lines">
          ${this.logs.map(
            (l) => html`<li class="log-line log-${l.level}"><time>${formatTime(l.created_at).slice(11)}</time><span class="log-level">${l.level}</span>${l.node_id ? html`<span class="log-node">${l.node_id}</span>` : nothing}<span>${l.message}</span></li>`,
          )}
        </ol>
      </section>
    `;
  }

  override render(): unknown {
    if (this.error && !this.run) return html`<section class="card empty"><h1>Run not available</h1><p class="form-error" role="alert">${this.error}</p><a href="/">Back to Workflows</a></section>`;
    const run = this.run;
    if (!run) return html`<p class="muted pad">Loading run…</p>`;
    const statuses = latestStepStatus(run.steps ?? []);
    for (const a of run.approvals ?? []) if (a.status === 'pending' && !statuses[a.node_id]) statuses[a.node_id] = 'waiting_approval';
    const labels = new Map((this.graph?.nodes ?? []).map((n) => [n.id, n.data?.label || n.id]));
    const approvals = (run.approvals ?? []).slice().sort((a, b) => (a.status === 'pending' ? -1 : 0) - (b.status === 'pending' ? -1 : 0));
    const active = isActive(run.status);
    return html`
      <div class="run-page" data-status=${run.status} data-refreshes=${this.refreshes}>
        <header class="run-head">
          <div class="run-title">
            <a href="/" class="muted small">← Workflows</a>
            <h1>${run.workflow_name ?? 'Run'} ${statusBadge(run.status)}</h1>
            <div class="muted small run-meta">
              <span class="mono" title="Run id">${run.id}</span>
              <span title="Workspace" class="mono">${run.workspace_path ?? ''}</span>
              <span>${run.write ? 'write' : 'read-only'}</span>
              <span>started ${formatTime(run.started_at ?? run.created_at)}</span>
              <span>${elapsed(run.started_at ?? run.created_at, run.completed_at)}</span>
              ${active ? html`<span class="live-dot" title="Refreshing every 2 seconds">live</span>` : nothing}
            </div>
          </div>
          <div class="run-actions">
            ${run.pull_request_url ? html`<a class="btn btn-sm" href=${run.pull_request_url} target="_blank" rel="external noopener" data-action="pull-request">Pull request ↗</a>` : nothing}
            ${!run.pull_request_url && run.write && run.bundle_path ? html`<span class="muted small" title=${run.bundle_path}>Bundle: <span class="mono">${run.bundle_path}</span></span>` : nothing}
            <button class="btn btn-sm" data-action="memory" aria-pressed=${this.showMemory} @click=${() => (this.showMemory = !this.showMemory)}>Memory</button>
            ${run.status === 'failed' ? html`<button class="btn btn-sm" data-action="resume" @click=${() => this.action('resume')}>Resume</button>` : nothing}
            ${active ? html`<button class="btn btn-sm btn-danger" data-action="cancel" @click=${() => this.action('cancel')}>Cancel run</button>` : nothing}
          </div>
        </header>
        ${run.error ? html`<p class="banner banner-error" role="alert">${run.error}</p>` : nothing}
        ${approvals.length ? html`<div class="approvals">${approvals.map((a) => html`<wf-approval-panel .approval=${a} .runId=${run.id} .nodeLabel=${labels.get(a.node_id) ?? ''} @resolved=${() => this.refresh()}></wf-approval-panel>`)}</div>` : nothing}
        ${this.showMemory ? html`<wf-run-memory .runId=${run.id}></wf-run-memory>` : nothing}
        <div class="run-body">
          ${this.renderSteps(statuses)}
          <section class="graph-pane" aria-label="Node execution graph">
            ${this.graph ? html`<wf-graph-view .graph=${this.graph} .statuses=${statuses} .selected=${this.selected} @node-select=${(e: CustomEvent<string>) => (this.selected = e.detail)}></wf-graph-view>` : html`<p class="muted pad">No graph.</p>`}
          </section>
          ${this.renderDrawer()}
        </div>
        ${this.renderLogPanel()}
      </div>
    `;
  }
}
