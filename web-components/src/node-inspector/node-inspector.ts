/**
 * <wf-node-inspector>: every data field of design.md §5 for the selected node, grouped by what its type uses.
 * Label and Objective are required and say so when empty; the MCP tools list is read-only (configured
 * globally per agent CLI); models come from the selected agent's list; skills are a checklist. Supervisors get
 * Plan / Refine, agent nodes Tune. Emits `node-change` (a data patch), `node-delete`, `edge-add`,
 * `edge-remove`, `plan`, `refine`, `tune`.
 */
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Graph, GraphNode, GraphProblem, NodeData } from '../../../core/graph.js';
import { fieldGroups, isAgentType, nodeFieldErrors, typeLabel } from '../lib/nodes.js';
import { LightElement } from '../state.js';
import type { AgentInfo, Skill } from '../types.js';

const CONDITION_OPS = ['succeeded', 'contains', 'not_contains', 'matches', 'equals'] as const;
const ACTIONS = [
  ['approve', 'Approve'],
  ['reject', 'Reject'],
  ['request_revision', 'Request revision'],
] as const;

@customElement('wf-node-inspector')
export class WfNodeInspector extends LightElement {
  @property({ attribute: false }) node!: GraphNode;
  @property({ attribute: false }) graph!: Graph;
  @property({ attribute: false }) agents: AgentInfo[] = [];
  @property({ attribute: false }) skills: Skill[] = [];
  @property({ attribute: false }) problems: GraphProblem[] = [];
  @property({ type: Boolean }) busy = false;
  @state() private connectTarget = '';
  @state() private connectHandle: 'true' | 'false' = 'true';
  @state() private feedback = '';
  @state() private instruction = '';

  private emit(name: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true }));
  }
  private patch(p: Partial<NodeData>): void {
    this.emit('node-change', p);
  }

  private text(field: keyof NodeData & string, label: string, opts: { required?: boolean; multiline?: boolean; placeholder?: string; errors?: Record<string, string>; hint?: string } = {}): unknown {
    const id = `insp-${field}`;
    const value = (this.node.data[field] as string | undefined) ?? '';
    const err = opts.errors?.[field];
    const onInput = (e: InputEvent) => this.patch({ [field]: (e.target as HTMLInputElement).value } as Partial<NodeData>);
    return html`<div class="field ${err ? 'has-error' : ''}">
      <label for=${id}>${label}${opts.required ? html` <span class="req" aria-hidden="true">*</span>` : nothing}</label>
      ${opts.multiline
        ? html`<textarea id=${id} name=${field} rows="3" .value=${value} ?required=${opts.required} aria-invalid=${!!err} aria-describedby=${err ? `${id}-err` : ''} placeholder=${opts.placeholder ?? ''} @input=${onInput}></textarea>`
        : html`<input id=${id} name=${field} .value=${value} ?required=${opts.required} aria-invalid=${!!err} aria-describedby=${err ? `${id}-err` : ''} placeholder=${opts.placeholder ?? ''} @input=${onInput} />`}
      ${err ? html`<p class="field-error" id="${id}-err" data-field=${field}>${err}</p>` : opts.hint ? html`<p class="hint">${opts.hint}</p>` : nothing}
    </div>`;
  }

  private select(field: string, label: string, value: string, options: ReadonlyArray<readonly [string, string]>, onChange: (v: string) => void, err?: string): unknown {
    const id = `insp-${field}`;
    return html`<div class="field ${err ? 'has-error' : ''}">
      <label for=${id}>${label}</label>
      <select id=${id} name=${field} @change=${(e: Event) => onChange((e.target as HTMLSelectElement).value)}>
        ${options.map(([v, l]) => html`<option value=${v} ?selected=${v === value}>${l}</option>`)}
      </select>
      ${err ? html`<p class="field-error">${err}</p>` : nothing}
    </div>`;
  }

  private agentSection(errors: Record<string, string>): unknown {
    const d = this.node.data;
    const agentName = d.sandboxAgent ?? 'claude';
    const agent = this.agents.find((a) => a.name === agentName);
    const models = agent?.models ?? [];
    const mcp = (agent?.mcp_servers ?? []).map((m) => (typeof m === 'string' ? m : m.name));
    const skillIds = d.skills ?? [];
    return html`<fieldset class="insp-group"><legend>Agent</legend>
      ${this.select('runtime', 'Runtime', d.runtime ?? 'direct', [['direct', 'Direct CLI (sandboxed on the host)'], ['container', 'Container sandbox']], (v) => this.patch({ runtime: v as NodeData['runtime'] }), errors.runtime)}
      ${d.runtime === 'container' ? this.text('image', 'Container image', { placeholder: 'Default: WFCTL_AGENT_IMAGE or the built-in agent image', errors }) : nothing}
      ${this.select('sandboxAgent', 'Agent CLI', agentName, ['claude', 'codex', 'gemini'].map((a) => {
        const info = this.agents.find((x) => x.name === a);
        return [a, `${info?.display_name ?? a}${info && info.found === false ? ' (not installed)' : ''}`] as const;
      }), (v) => this.patch({ sandboxAgent: v as NodeData['sandboxAgent'], model: undefined }), errors.sandboxAgent)}
      ${this.select('model', 'Model', d.model ?? '', [['', agent?.default_model ? `Agent default (${agent.default_model})` : 'Agent default'], ...models.map((m) => [m, m] as const)], (v) => this.patch({ model: v || undefined }))}
      <div class="field"><span class="label">MCP tools <span class="muted small">(read-only: configured globally per agent CLI)</span></span>
        <ul class="mcp-list" aria-label="MCP tools of ${agentName}">${mcp.length ? mcp.map((m) => html`<li class="chip chip-static">${m}</li>`) : html`<li class="muted small">None configured for ${agentName}</li>`}</ul>
      </div>
      <fieldset class="field skills-picker"><legend>Skills</legend>
        ${this.skills.length === 0 ? html`<p class="muted small">No skills defined.</p>` : nothing}
        ${this.skills.map(
          (s) => html`<label class="check" title=${s.description ?? ''}><input type="checkbox" .checked=${skillIds.includes(s.id)}
            @change=${(e: Event) => this.patch({ skills: (e.target as HTMLInputElement).checked ? [...skillIds, s.id] : skillIds.filter((x) => x !== s.id) })} /> ${s.name}</label>`,
        )}
        ${skillIds.filter((id) => !this.skills.some((s) => s.id === id)).map((id) => html`<span class="chip chip-static" title="Unknown skill id">${id}</span>`)}
      </fieldset>
      ${this.select('memoryScope', 'Memory scope', d.memoryScope ?? 'workflow', [['workflow', 'workflow: every later node'], ['team', 'team: same supervisor'], ['agent_private', 'agent_private: this node only']], (v) => this.patch({ memoryScope: v as NodeData['memoryScope'] }), errors.memoryScope)}
      <div class="field ${errors.maxIterations ? 'has-error' : ''}"><label for="insp-maxIterations">Max iterations</label>
        <input id="insp-maxIterations" type="number" min="1" max="10" step="1" .value=${String(d.maxIterations ?? 1)}
          @input=${(e: InputEvent) => this.patch({ maxIterations: Number((e.target as HTMLInputElement).value) })} />
        ${errors.maxIterations ? html`<p class="field-error">${errors.maxIterations}</p>` : html`<p class="hint">Attempts on failure; 1 means no retry.</p>`}
      </div>
    </fieldset>`;
  }

  private supervisorSection(): unknown {
    const d = this.node.data;
    const generated = this.graph.nodes.filter((n) => n.data.generatedBy === this.node.id).length;
    return html`<fieldset class="insp-group"><legend>Supervisor</legend>
      ${this.select('delegationStrategy', 'Delegation', d.delegationStrategy ?? 'sequential_delegation', [['sequential_delegation', 'Sequential (one node at a time)'], ['parallel_delegation', 'Parallel (up to 3 at once)']], (v) => this.patch({ delegationStrategy: v as NodeData['delegationStrategy'] }))}
      <p class="hint">Plan asks this supervisor's agent to draft specialist nodes from its objective; they are marked generated and replaced on re-planning, manual nodes are kept.</p>
      <div class="btn-row"><button class="btn btn-sm btn-primary" data-action="plan" ?disabled=${this.busy} @click=${() => this.emit('plan')}>Plan</button>
        <span class="muted small">${generated} generated node(s)</span></div>
      <div class="field"><label for="insp-feedback">Refinement feedback</label>
        <textarea id="insp-feedback" rows="2" .value=${this.feedback} placeholder="e.g. add a security review before the report" @input=${(e: InputEvent) => (this.feedback = (e.target as HTMLTextAreaElement).value)}></textarea></div>
      <button class="btn btn-sm" data-action="refine" ?disabled=${this.busy || !generated || !this.feedback.trim()} @click=${() => this.emit('refine', this.feedback)}>Refine plan</button>
    </fieldset>`;
  }

  private approvalSection(errors: Record<string, string>): unknown {
    const d = this.node.data;
    const allowed = d.allowedActions ?? ['approve', 'reject', 'request_revision'];
    return html`<fieldset class="insp-group"><legend>Approval gate</legend>
      <fieldset class="field"><legend>Allowed actions</legend>
        ${ACTIONS.map(([a, l]) => html`<label class="check"><input type="checkbox" .checked=${allowed.includes(a)}
          @change=${(e: Event) => this.patch({ allowedActions: (e.target as HTMLInputElement).checked ? [...allowed, a] : allowed.filter((x) => x !== a) })} /> ${l}</label>`)}
        ${errors.allowedActions ? html`<p class="field-error">${errors.allowedActions}</p>` : nothing}
      </fieldset>
      <label class="check"><input type="checkbox" id="insp-noteRequired" .checked=${!!d.noteRequired} @change=${(e: Event) => this.patch({ noteRequired: (e.target as HTMLInputElement).checked })} /> A note is required before any action</label>
      <div class="field ${errors.timeoutHours ? 'has-error' : ''}"><label for="insp-timeoutHours">Timeout (hours)</label>
        <input id="insp-timeoutHours" type="number" min="0.01" step="any" .value=${String(d.timeoutHours ?? 24)} @input=${(e: InputEvent) => this.patch({ timeoutHours: Number((e.target as HTMLInputElement).value) })} />
        ${errors.timeoutHours ? html`<p class="field-error">${errors.timeoutHours}</p>` : html`<p class="hint">A pending approval expires after this and cancels the run.</p>`}</div>
    </fieldset>`;
  }

  private conditionSection(errors: Record<string, string>): unknown {
    const c = this.node.data.condition ?? { op: 'succeeded' as const };
    const parents = this.graph.edges.filter((e) => e.target === this.node.id).map((e) => e.source);
    return html`<fieldset class="insp-group"><legend>Condition</legend>
      ${this.select('condition-op', 'Test', c.op, CONDITION_OPS.map((o) => [o, o.replace('_', ' ')] as const), (v) => this.patch({ condition: { ...c, op: v as typeof c.op } }), errors.condition)}
      ${c.op !== 'succeeded'
        ? html`<div class="field ${errors['condition.value'] ? 'has-error' : ''}"><label for="insp-cond-value">Value</label>
            <input id="insp-cond-value" .value=${c.value ?? ''} @input=${(e: InputEvent) => this.patch({ condition: { ...c, value: (e.target as HTMLInputElement).value } })} />
            ${errors['condition.value'] ? html`<p class="field-error">${errors['condition.value']}</p>` : nothing}</div>`
        : nothing}
      ${this.select('condition-source', 'Tested node', c.source ?? '', [['', parents.length === 1 ? `The single parent (${parents[0]})` : 'The single parent'], ...this.graph.nodes.filter((n) => n.id !== this.node.id).map((n) => [n.id, n.data.label || n.id] as const)], (v) => this.patch({ condition: { ...c, source: v || undefined } }), errors['condition.source'])}
      <p class="hint">Connect the true and false branches below.</p>
    </fieldset>`;
  }

  private webhookSection(errors: Record<string, string>): unknown {
    const d = this.node.data;
    let headersText = d.headers ? JSON.stringify(d.headers, null, 1) : '';
    return html`<fieldset class="insp-group"><legend>Webhook</legend>
      ${this.text('url', 'URL', { placeholder: 'https://hooks.example.com/…', errors })}
      ${this.select('method', 'Method', (d.method ?? 'POST').toUpperCase(), [['POST', 'POST'], ['PUT', 'PUT'], ['PATCH', 'PATCH']], (v) => this.patch({ method: v }))}
      <div class="field ${errors.headers ? 'has-error' : ''}"><label for="insp-headers">Headers (JSON object)</label>
        <textarea id="insp-headers" rows="2" class="mono" .value=${headersText} placeholder='{"X-Token": "…"}' @change=${(e: Event) => {
          headersText = (e.target as HTMLTextAreaElement).value;
          if (!headersText.trim()) return this.patch({ headers: undefined });
          try {
            this.patch({ headers: JSON.parse(headersText) });
          } catch {
            this.patch({ headers: headersText as unknown as Record<string, string> });
          }
        }}></textarea>
        ${errors.headers ? html`<p class="field-error">${errors.headers}</p>` : nothing}</div>
    </fieldset>`;
  }

  private memorySection(errors: Record<string, string>): unknown {
    const d = this.node.data;
    return html`<fieldset class="insp-group"><legend>Memory write</legend>
      ${this.text('key', 'Key', { placeholder: 'e.g. release_notes', errors })}
      ${this.select('memoryScope', 'Scope', d.memoryScope ?? 'workflow', [['workflow', 'workflow'], ['team', 'team'], ['agent_private', 'agent_private']], (v) => this.patch({ memoryScope: v as NodeData['memoryScope'] }))}
      ${this.select('sensitivity', 'Sensitivity', d.sensitivity ?? 'normal', [['normal', 'normal'], ['sensitive', 'sensitive (shown masked)']], (v) => this.patch({ sensitivity: v as NodeData['sensitivity'] }), errors.sensitivity)}
      ${this.text('value', 'Value template', { multiline: true, placeholder: 'Default: the outputs of the parent nodes', errors })}
    </fieldset>`;
  }

  private connections(): unknown {
    const out = this.graph.edges.filter((e) => e.source === this.node.id);
    const inc = this.graph.edges.filter((e) => e.target === this.node.id);
    const name = (id: string) => this.graph.nodes.find((n) => n.id === id)?.data.label || id;
    const candidates = this.graph.nodes.filter((n) => n.id !== this.node.id);
    const conditional = this.node.type === 'conditional';
    return html`<fieldset class="insp-group"><legend>Connections</legend>
      <ul class="edge-list">
        ${inc.map((e) => html`<li>← ${name(e.source)} <button class="icon-btn" aria-label="Remove the edge from ${name(e.source)}" title="Remove edge" @click=${() => this.emit('edge-remove', e.id)}>✕</button></li>`)}
        ${out.map((e) => html`<li>→ ${name(e.target)}${e.sourceHandle ? html` <span class="badge">${e.sourceHandle}</span>` : nothing} <button class="icon-btn" aria-label="Remove the edge to ${name(e.target)}" title="Remove edge" @click=${() => this.emit('edge-remove', e.id)}>✕</button></li>`)}
        ${!inc.length && !out.length ? html`<li class="muted small">Not connected. Shift-click another node on the canvas, or pick one here.</li>` : nothing}
      </ul>
      <div class="connect-row">
        <label class="sr-only" for="insp-connect">Connect to</label>
        <select id="insp-connect" @change=${(e: Event) => (this.connectTarget = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${!this.connectTarget}>Connect to…</option>
          ${candidates.map((n) => html`<option value=${n.id} ?selected=${n.id === this.connectTarget}>${n.data.label || n.id}</option>`)}
        </select>
        ${conditional
          ? html`<label class="sr-only" for="insp-handle">Branch</label><select id="insp-handle" @change=${(e: Event) => (this.connectHandle = (e.target as HTMLSelectElement).value as 'true' | 'false')}>
              <option value="true">true</option><option value="false">false</option></select>`
          : nothing}
        <button class="btn btn-sm" data-action="connect" ?disabled=${!this.connectTarget} @click=${() => {
          this.emit('edge-add', { source: this.node.id, target: this.connectTarget, ...(conditional ? { sourceHandle: this.connectHandle } : {}) });
          this.connectTarget = '';
        }}>Add edge</button>
      </div>
    </fieldset>`;
  }

  override render(): unknown {
    const n = this.node;
    if (!n) return nothing;
    const errors = nodeFieldErrors(n);
    for (const p of this.problems) if (p.field && !errors[p.field]) errors[p.field] = p.message.replace(/^node '[^']*': /, '');
    const general = this.problems.filter((p) => !p.field || !['label', 'objective'].includes(p.field));
    const groups = fieldGroups(n.type);
    return html`
      <div class="inspector" data-node=${n.id}>
        <div class="insp-head">
          <div><h2>${typeLabel(n.type)}</h2><span class="muted small mono">${n.id}</span>
            ${n.data.generatedBy ? html`<span class="badge badge-generated" title="Created by the planner of ${n.data.generatedBy}">generated by ${n.data.generatedBy}</span>` : nothing}</div>
          <button class="btn btn-sm btn-danger-ghost" data-action="delete-node" @click=${() => this.emit('node-delete')}>Delete node</button>
        </div>
        ${general.length ? html`<ul class="problems" role="alert">${general.map((p) => html`<li>${p.message}</li>`)}</ul>` : nothing}
        <fieldset class="insp-group"><legend>Basics</legend>
          ${this.text('label', 'Label', { required: true, errors, placeholder: 'Short display name' })}
          ${this.text('objective', 'Objective', { required: true, multiline: true, errors, placeholder: 'What this node must achieve' })}
          ${this.text('role', 'Role', { placeholder: 'e.g. Senior backend engineer' })}
          ${isAgentType(n.type) ? this.text('systemInstructions', 'System instructions', { multiline: true, hint: 'Added after the attached skills’ prompt fragments.' }) : nothing}
        </fieldset>
        ${groups.includes('agent') ? this.agentSection(errors) : nothing}
        ${groups.includes('supervisor') ? this.supervisorSection() : nothing}
        ${isAgentType(n.type)
          ? html`<fieldset class="insp-group"><legend>Tune with the agent</legend>
              <div class="field"><label for="insp-tune">Instruction</label>
                <input id="insp-tune" .value=${this.instruction} placeholder="e.g. make the objective testable" @input=${(e: InputEvent) => (this.instruction = (e.target as HTMLInputElement).value)} /></div>
              <button class="btn btn-sm" data-action="tune" ?disabled=${this.busy || !this.instruction.trim()} @click=${() => this.emit('tune', this.instruction)}>Tune node</button>
              <p class="hint">Rewrites only label, role, objective and system instructions.</p>
            </fieldset>`
          : nothing}
        ${groups.includes('approval') ? this.approvalSection(errors) : nothing}
        ${groups.includes('condition') ? this.conditionSection(errors) : nothing}
        ${groups.includes('webhook') ? this.webhookSection(errors) : nothing}
        ${groups.includes('memory') ? this.memorySection(errors) : nothing}
        ${this.connections()}
      </div>
    `;
  }
}
