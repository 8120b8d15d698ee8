/**
 * <wf-approval-panel>: one approval request on the run page. Offers only the gate's allowedActions; when the
 * gate says noteRequired, every action stays disabled until a note is typed (spec §7); expired approvals say so
 * and offer nothing. Emits `resolved` after a successful submission.
 */
import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { errorMessage } from '../lib/api.js';
import { ACTION_INFO, approvalView, canSubmitApproval, type ApprovalActionName } from '../lib/format.js';
import { api, LightElement } from '../state.js';
import type { ApprovalRequest } from '../types.js';

@customElement('wf-approval-panel')
export class WfApprovalPanel extends LightElement {
  @property({ attribute: false }) approval!: ApprovalRequest;
  @property() runId = '';
  @property() nodeLabel = '';
  @state() private note = '';
  @state() private error = '';
  @state() private busy = false;

  private async submit(action: ApprovalActionName): Promise<void> {
    const view = approvalView(this.approval);
    if (!canSubmitApproval(view, this.note)) {
      this.error = view.noteRequired ? 'A note is required before any action on this gate.' : 'This approval can no longer be submitted.';
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const note = this.note.trim();
      await api.post(`/api/workflow-runs/${encodeURIComponent(this.runId)}/${ACTION_INFO[action].route}/${encodeURIComponent(this.approval.id)}`, note ? { note } : {});
      this.note = '';
      this.dispatchEvent(new CustomEvent('resolved', { bubbles: true }));
    } catch (e) {
      this.error = errorMessage(e);
      this.dispatchEvent(new CustomEvent('resolved', { bubbles: true }));
    } finally {
      this.busy = false;
    }
  }

  override render(): unknown {
    const a = this.approval;
    const view = approvalView(a);
    const noteId = `note-${a.id}`;
    const ready = canSubmitApproval(view, this.note);
    return html`
      <section class="approval ${view.open ? 'approval-open' : ''} ${view.expired ? 'approval-expired' : ''}" aria-labelledby="appr-${a.id}" data-approval=${a.id}>
        <header>
          <h3 id="appr-${a.id}">Approval: ${a.title || this.nodeLabel || a.node_id}</h3>
          <span class="muted small">${view.message}</span>
        </header>
        ${view.open
          ? html`
              <label class="field" for=${noteId}><span>Note${view.noteRequired ? html` <em class="req">(required)</em>` : html` <em class="muted">(optional)</em>`}</span></label>
              <textarea id=${noteId} class="approval-note" rows="2" .value=${this.note} aria-required=${view.noteRequired}
                placeholder=${view.noteRequired ? 'Explain your decision: a note is required on this gate' : 'Add a note for the audit trail'}
                @input=${(e: InputEvent) => (this.note = (e.target as HTMLTextAreaElement).value)}></textarea>
              ${view.noteRequired && !this.note.trim() ? html`<p class="hint" id="${noteId}-hint">Enter a note to enable the actions.</p>` : nothing}
              <div class="approval-actions">
                ${view.actions.map(
                  (act) => html`<button class="btn btn-sm ${act === 'approve' ? 'btn-primary' : act === 'reject' ? 'btn-danger' : ''}" data-action=${act}
                    ?disabled=${!ready || this.busy} @click=${() => this.submit(act)}>${ACTION_INFO[act].label}</button>`,
                )}
              </div>`
          : view.expired
            ? html`<p class="expired-note" role="note">${view.message}</p>`
            : nothing}
        ${this.error ? html`<p class="form-error" role="alert">${this.error}</p>` : nothing}
      </section>
    `;
  }
}
