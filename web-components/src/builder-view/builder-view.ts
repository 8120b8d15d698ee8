/**
 * <wf-builder>: the workflow builder (/workflows/new, /workflows/{id}/edit). Palette groups Agents, Control
 * Flow, Memory, Notifications; drag a type onto the cytoscape canvas (or press Enter on it) to add a node;
 * Shift-click a second node, or use the inspector, to connect; Delete removes the selection. Saving goes through
 * the API, whose 422 problems are shown on the nodes. Supervisor planning merges generated nodes and saves.
 */
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type cytoscape from 'cytoscape';
import type { Graph, GraphEdge, GraphNode, GraphProblem, NodeData, NodeType } from '../../../core/graph.js';
import { ApiError, errorMessage } from '../lib/api.js';
import { defaultNodeData, nextNodeId, nodeFieldErrors, PALETTE_GROUPS, problemsByNode, problemsFromError } from '../lib/nodes.js';
import { api, LightElement, navigate, toast } from '../state.js';
import type { AgentInfo, Skill, Workflow, Workspace } from '../types.js';
import '../node-inspector/node-inspector.js';
import { NODE_DRAG_TYPE } from '../node-palette/node-palette.js';
import { BuilderCanvas } from './canvas.js';
import { planSupervisor, tuneNode } from './planning.js';

@customElement('wf-builder')
export class WfBuilder extends LightElement {
  @property() workflowId = '';
  @state() private name = '';
  @state() private description = '';
  @state() private graph: Graph = { nodes: [], edges: [] };
  @state() private selectedNode: string | undefined;
  @state() private selectedEdge: string | undefined;
  @state() private problems: GraphProblem[] = [];
  @state() private loadError = '';
  @state() private saving = false;
  @state() private planning = false;
  @state() private dirty = false;
  @state() private agents: AgentInfo[] = [];
  @state() private skills: Skill[] = [];
  @state() private workspaces: Workspace[] = [];
  @state() private planWorkspace = '';
  @state() private loaded = false;
  private canvas: BuilderCanvas | undefined;
  /** Id given by the first save of a new workflow (the route changes to it without a reload). */
  private savedId = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    window.addEventListener('beforeunload', this.onBeforeUnload);
  }
  override disconnectedCallback(): void {
    window.removeEventListener('beforeunload', this.onBeforeUnload);
    this.canvas?.destroy();
    this.canvas = undefined;
    super.disconnectedCallback();
  }
  private readonly onBeforeUnload = (e: BeforeUnloadEvent) => {
    if (this.dirty) e.preventDefault();
  };

  private async load(): Promise<void> {
    const side = Promise.all([
      api.get<AgentInfo[]>('/api/agents').then((a) => (this.agents = Array.isArray(a) ? a : [])).catch(() => undefined),
      api.get<Skill[]>('/api/skills').then((s) => (this.skills = Array.isArray(s) ? s : [])).catch(() => undefined),
      api.get<Workspace[]>('/api/workspaces').then((w) => {
        this.workspaces = Array.isArray(w) ? w : [];
        this.planWorkspace ||= this.workspaces[0]?.path ?? '';
      }).catch(() => undefined),
    ]);
    if (this.workflowId) {
      try {
        const wf = await api.get<Workflow>(`/api/workflows/${encodeURIComponent(this.workflowId)}`);
        this.name = wf.name;
        this.description = wf.description ?? '';
        this.graph = wf.graph ?? { nodes: [], edges: [] };
        if (wf.active_run) toast('This workflow has an active run: saving is refused until it ends.', 'error');
      } catch (e) {
        this.loadError = errorMessage(e);
      }
    }
    this.loaded = true;
    await side;
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    // The same element serves /workflows/new and /workflows/{id}/edit: a different id (other than the one a
    // first save just assigned) starts over.
    if (changed.has('workflowId') && changed.get('workflowId') !== undefined && this.loaded && this.workflowId !== this.savedId) {
      this.loaded = false;
      this.loadError = '';
      this.graph = { nodes: [], edges: [] };
      this.name = '';
      this.description = '';
      this.problems = [];
      this.selectedNode = undefined;
      this.selectedEdge = undefined;
      this.dirty = false;
      this.canvas?.reset();
      void this.load();
    }
  }

  override updated(): void {
    const el = this.querySelector('.canvas') as HTMLElement | null;
    if (el && !this.canvas) {
      this.canvas = new BuilderCanvas(el, {
        selectedNode: () => this.selectedNode,
        select: (node, edge) => ((this.selectedNode = node), (this.selectedEdge = edge)),
        connect: (source, target) => this.addEdge({ source, target }),
        moved: (id, position) => {
          this.graph = { ...this.graph, nodes: this.graph.nodes.map((n) => (n.id === id ? { ...n, position } : n)) };
          this.dirty = true;
        },
      });
    }
    this.canvas?.sync(this.graph, this.problems, this.selectedNode, this.selectedEdge);
  }

  /** The cytoscape instance (tests and debugging). */
  get cy(): cytoscape.Core | undefined {
    return this.canvas?.cy;
  }

  /** A free spot right of the rightmost node (keyboard / click adds). */
  private nextFreePoint(): { x: number; y: number } {
    if (!this.graph.nodes.length) return { x: 0, y: 0 };
    const xs = this.graph.nodes.map((n) => n.position?.x ?? 0);
    return { x: Math.max(...xs) + 230, y: this.graph.nodes[this.graph.nodes.length - 1]?.position?.y ?? 0 };
  }

  addNode(type: NodeType, position?: { x: number; y: number }): string {
    const id = nextNodeId(this.graph, type);
    const node: GraphNode = { id, type, position: position ?? this.nextFreePoint(), data: defaultNodeData(type) };
    this.graph = { ...this.graph, nodes: [...this.graph.nodes, node] };
    this.selectedNode = id;
    this.selectedEdge = undefined;
    this.dirty = true;
    return id;
  }

  private addEdge(e: { source: string; target: string; sourceHandle?: string }): void {
    const src = this.graph.nodes.find((n) => n.id === e.source);
    if (this.graph.edges.some((x) => x.source === e.source && x.target === e.target)) {
      toast('Those nodes are already connected.');
      return;
    }
    const handle = e.sourceHandle ?? (src?.type === 'conditional' ? (this.graph.edges.some((x) => x.source === src.id && x.sourceHandle === 'true') ? 'false' : 'true') : undefined);
    let n = this.graph.edges.length + 1;
    while (this.graph.edges.some((x) => x.id === `e${n}`)) n++;
    const edge: GraphEdge = { id: `e${n}`, source: e.source, target: e.target, ...(handle ? { sourceHandle: handle } : {}) };
    this.graph = { ...this.graph, edges: [...this.graph.edges, edge] };
    this.dirty = true;
  }

  private removeEdge(id: string): void {
    this.graph = { ...this.graph, edges: this.graph.edges.filter((e) => e.id !== id) };
    if (this.selectedEdge === id) this.selectedEdge = undefined;
    this.dirty = true;
  }

  private removeNode(id: string): void {
    this.graph = { nodes: this.graph.nodes.filter((n) => n.id !== id), edges: this.graph.edges.filter((e) => e.source !== id && e.target !== id) };
    this.problems = this.problems.filter((p) => p.node_id !== id);
    if (this.selectedNode === id) this.selectedNode = undefined;
    this.dirty = true;
  }

  private patchNode(id: string, patch: Partial<NodeData>): void {
    this.graph = {
      ...this.graph,
      nodes: this.graph.nodes.map((n) => {
        if (n.id !== id) return n;
        const data = { ...n.data, ...patch } as NodeData;
        for (const [k, v] of Object.entries(patch)) if (v === undefined) delete (data as Record<string, unknown>)[k];
        return { ...n, data };
      }),
    };
    // A fixed field no longer carries the server's complaint.
    const fields = Object.keys(patch);
    this.problems = this.problems.filter((p) => !(p.node_id === id && p.field && fields.some((f) => p.field === f || p.field!.startsWith(`${f}.`))));
    this.dirty = true;
  }

  private onCanvasKey(e: KeyboardEvent): void {
    if (e.key !== 'Delete' && e.key !== 'Backspace') return;
    e.preventDefault();
    if (this.selectedEdge) this.removeEdge(this.selectedEdge);
    else if (this.selectedNode) this.removeNode(this.selectedNode);
  }

  private onDrop(e: DragEvent): void {
    e.preventDefault();
    const type = e.dataTransfer?.getData(NODE_DRAG_TYPE) || e.dataTransfer?.getData('text/plain');
    if (!type || !PALETTE_GROUPS.some((g) => g.items.some((i) => i.type === type))) return;
    this.addNode(type as NodeType, this.canvas!.modelPoint(e.clientX, e.clientY));
  }

  async save(): Promise<boolean> {
    if (!this.name.trim()) {
      this.problems = [{ message: 'Give the workflow a name before saving.' }];
      (this.querySelector('#wf-name') as HTMLInputElement | null)?.focus();
      return false;
    }
    this.saving = true;
    try {
      const body = { name: this.name.trim(), description: this.description, graph: this.graph };
      if (this.workflowId) {
        await api.put(`/api/workflows/${encodeURIComponent(this.workflowId)}`, body);
      } else {
        const wf = await api.post<Workflow>('/api/workflows', body);
        this.savedId = wf.id;
        this.workflowId = wf.id;
        navigate(`/workflows/${encodeURIComponent(wf.id)}/edit`, true);
      }
      this.problems = [];
      this.dirty = false;
      toast('Workflow saved');
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) {
        const probs = problemsFromError(e.details);
        this.problems = probs.length ? probs : [{ message: e.message }];
        const first = this.problems.find((p) => p.node_id);
        if (first?.node_id && this.graph.nodes.some((n) => n.id === first.node_id)) this.selectedNode = first.node_id;
        toast(`Not saved: ${this.problems.length} problem(s) in the graph`, 'error');
      } else {
        this.problems = [{ message: errorMessage(e) }];
        toast(`Not saved: ${errorMessage(e)}`, 'error');
      }
      return false;
    } finally {
      this.saving = false;
    }
  }

  private planWorkspaceOrWarn(): string | undefined {
    const ws = this.planWorkspace.trim();
    if (!ws) toast('Choose a workspace for planning first (toolbar).', 'error');
    return ws || undefined;
  }

  private async plan(refineFeedback?: string): Promise<void> {
    const sup = this.graph.nodes.find((n) => n.id === this.selectedNode);
    if (!sup) return;
    if (!sup.data.objective?.trim()) {
      toast('The supervisor needs an objective to plan from.', 'error');
      return;
    }
    const ws = this.planWorkspaceOrWarn();
    if (!ws) return;
    this.planning = true;
    try {
      const merged = await planSupervisor(this.graph, sup, ws, refineFeedback);
      this.graph = merged;
      this.dirty = true;
      toast(`Planned ${merged.nodes.filter((n) => n.data.generatedBy === sup.id).length} node(s)`);
      // Spec §4 Planning rule 6: the generated workflow is saved at once and runnable.
      if (this.name.trim()) await this.save();
    } catch (e) {
      toast(`Planning failed: ${errorMessage(e)}`, 'error');
    } finally {
      this.planning = false;
    }
  }

  private async tune(instruction: string): Promise<void> {
    const node = this.graph.nodes.find((n) => n.id === this.selectedNode);
    if (!node) return;
    const ws = this.planWorkspaceOrWarn();
    if (!ws) return;
    this.planning = true;
    try {
      this.patchNode(node.id, await tuneNode(node, ws, instruction));
      toast('Node tuned');
    } catch (e) {
      toast(`Tune failed: ${errorMessage(e)}`, 'error');
    } finally {
      this.planning = false;
    }
  }

  override render(): unknown {
    if (this.loadError) return html`<section class="card empty"><h1>Workflow not available</h1><p class="form-error" role="alert">${this.loadError}</p><a href="/">Back to Workflows</a></section>`;
    if (!this.loaded) return html`<p class="muted pad">Loading…</p>`;
    const byNode = problemsByNode(this.problems);
    const sel = this.graph.nodes.find((n) => n.id === this.selectedNode);
    const general = byNode.get('') ?? [];
    const edge = this.graph.edges.find((e) => e.id === this.selectedEdge);
    return html`
      <div class="builder">
        <header class="builder-head">
          <div class="builder-title">
            <a href="/" class="muted small">← Workflows</a>
            <label class="sr-only" for="wf-name">Workflow name</label>
            <input id="wf-name" class="title-input" placeholder="Workflow name" .value=${this.name} required
              @input=${(e: InputEvent) => ((this.name = (e.target as HTMLInputElement).value), (this.dirty = true))} />
            <label class="sr-only" for="wf-desc">Description</label>
            <input id="wf-desc" class="desc-input" placeholder="Description (optional)" .value=${this.description}
              @input=${(e: InputEvent) => ((this.description = (e.target as HTMLInputElement).value), (this.dirty = true))} />
          </div>
          <div class="builder-actions">
            <label class="inline-field"><span>Planning workspace</span>
              <input list="wf-plan-ws" .value=${this.planWorkspace} placeholder="/path/to/repo" @input=${(e: InputEvent) => (this.planWorkspace = (e.target as HTMLInputElement).value)} />
              <datalist id="wf-plan-ws">${this.workspaces.map((w) => html`<option value=${w.path}></option>`)}</datalist>
            </label>
            ${this.dirty ? html`<span class="muted small" aria-live="polite">Unsaved changes</span>` : nothing}
            <button class="btn btn-primary" data-action="save" ?disabled=${this.saving} @click=${() => this.save()}>${this.saving ? 'Saving…' : 'Save'}</button>
          </div>
        </header>
        ${general.length || this.problems.some((p) => p.node_id)
          ? html`<div class="banner banner-error" role="alert"><strong>The graph has ${this.problems.length} problem(s):</strong>
              <ul>${this.problems.map((p) => html`<li>${p.node_id ? html`<button class="link-btn" @click=${() => ((this.selectedNode = p.node_id), (this.selectedEdge = undefined))}>${p.node_id}</button>: ` : nothing}${p.message}</li>`)}</ul></div>`
          : nothing}
        <div class="builder-body">
          <wf-node-palette @node-add=${(e: CustomEvent<NodeType>) => this.addNode(e.detail)}></wf-node-palette>
          <section class="canvas-wrap" aria-label="Canvas">
            <div class="canvas" tabindex="0" aria-label="Workflow canvas: Delete removes the selection, Shift-click a node to connect the selected node to it"
              @dragover=${(e: DragEvent) => (e.preventDefault(), e.dataTransfer && (e.dataTransfer.dropEffect = 'copy'))}
              @drop=${this.onDrop} @keydown=${this.onCanvasKey}></div>
            ${this.graph.nodes.length === 0 ? html`<div class="canvas-empty">Drag a node from the palette to start.</div>` : nothing}
            <div class="canvas-legend muted small">Lane colour = depth · dashed = generated by a planner · Shift-click to connect · Delete to remove</div>
          </section>
          <aside class="inspector-pane" aria-label="Inspector">
            ${sel
              ? html`<wf-node-inspector .node=${sel} .graph=${this.graph} .agents=${this.agents} .skills=${this.skills} .problems=${byNode.get(sel.id) ?? []} .busy=${this.planning}
                  @node-change=${(e: CustomEvent<Partial<NodeData>>) => this.patchNode(sel.id, e.detail)}
                  @node-delete=${() => this.removeNode(sel.id)}
                  @edge-add=${(e: CustomEvent<{ source: string; target: string; sourceHandle?: string }>) => this.addEdge(e.detail)}
                  @edge-remove=${(e: CustomEvent<string>) => this.removeEdge(e.detail)}
                  @plan=${() => this.plan()} @refine=${(e: CustomEvent<string>) => this.plan(e.detail)} @tune=${(e: CustomEvent<string>) => this.tune(e.detail)}></wf-node-inspector>`
              : edge
                ? html`<div class="inspector"><h2>Edge</h2><p>${edge.source} → ${edge.target}${edge.sourceHandle ? ` (${edge.sourceHandle})` : ''}</p>
                    <button class="btn btn-sm btn-danger-ghost" data-action="delete-edge" @click=${() => this.removeEdge(edge.id)}>Delete edge</button></div>`
                : html`<div class="inspector inspector-empty"><h2>Inspector</h2><p class="muted">Select a node to edit its fields. ${this.graph.nodes.length} node(s), ${this.graph.edges.length} edge(s).</p>
                    ${this.graph.nodes.length
                      ? html`<ul class="node-picker" aria-label="Nodes">${this.graph.nodes.map(
                          (n) => html`<li><button class="link-btn" @click=${() => ((this.selectedNode = n.id), (this.selectedEdge = undefined))}>${n.data.label || n.id}</button>
                            ${byNode.get(n.id)?.length || Object.keys(nodeFieldErrors(n)).length ? html`<span class="field-error">needs attention</span>` : nothing}</li>`,
                        )}</ul>`
                      : nothing}</div>`}
          </aside>
        </div>
      </div>
    `;
  }
}
