/** <wf-not-found>: every path outside the route table, including the removed /runs and /approvals pages. */
import { html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { LightElement } from '../state.js';

@customElement('wf-not-found')
export class WfNotFound extends LightElement {
  override render(): unknown {
    const removed = /^\/(runs|approvals)\/?$/.test(window.location.pathname);
    return html`<section class="card empty not-found" aria-labelledby="nf-title">
      <h1 id="nf-title">Page not found</h1>
      <p class="muted mono">${window.location.pathname}</p>
      <p>${removed
        ? 'This page no longer exists: run history is inline on the Workflows page (click a row), and approvals are handled on the run page.'
        : 'Nothing lives at this address.'}</p>
      <a class="btn btn-primary" href="/">Go to Workflows</a>
    </section>`;
  }
}
