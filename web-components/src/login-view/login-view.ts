/**
 * <wf-login>: sign in, or, on first run (GET /api/auth/status says not bootstrapped), the form that creates the
 * first admin through POST /api/auth/bootstrap. Both store the token and user and go to the Workflows page.
 */
import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { errorMessage } from '../lib/api.js';
import { api } from '../state.js';
import type { SessionUser } from '../lib/session.js';
import { LightElement, navigate, session, setSession } from '../state.js';

@customElement('wf-login')
export class WfLogin extends LightElement {
  @state() private bootstrapped: boolean | undefined;
  @state() private error = '';
  @state() private busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    if (session()) {
      queueMicrotask(() => navigate('/', true));
      return;
    }
    void this.loadStatus();
  }

  private async loadStatus(): Promise<void> {
    try {
      const s = await api.get<{ bootstrapped: boolean }>('/api/auth/status');
      this.bootstrapped = !!s.bootstrapped;
    } catch (e) {
      this.bootstrapped = true;
      this.error = errorMessage(e);
    }
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const fd = new FormData(form);
    const username = String(fd.get('username') ?? '').trim();
    const password = String(fd.get('password') ?? '');
    if (!username || !password) {
      this.error = 'Enter a user name and a password.';
      return;
    }
    if (!this.bootstrapped && password !== String(fd.get('confirm') ?? '')) {
      this.error = 'The two passwords differ.';
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      const path = this.bootstrapped ? '/api/auth/login' : '/api/auth/bootstrap';
      const r = await api.post<{ token: string; user: SessionUser }>(path, { username, password });
      setSession({ token: r.token, user: r.user });
      navigate('/');
    } catch (err) {
      this.error = errorMessage(err);
      if (!this.bootstrapped) void this.loadStatus();
    } finally {
      this.busy = false;
    }
  }

  override render(): unknown {
    if (this.bootstrapped === undefined) return html`<div class="auth-page"><p class="muted">Loading…</p></div>`;
    const first = !this.bootstrapped;
    return html`
      <div class="auth-page">
        <form class="auth-card card" @submit=${this.submit} aria-labelledby="auth-title">
          <div class="brand brand-lg"><span class="brand-mark">wf</span>ctl</div>
          <h1 id="auth-title">${first ? 'Create the admin account' : 'Sign in'}</h1>
          ${first ? html`<p class="muted">This is a new installation. The first account you create is its administrator.</p>` : nothing}
          <label class="field"><span>User name</span>
            <input name="username" autocomplete="username" required autofocus />
          </label>
          <label class="field"><span>Password</span>
            <input name="password" type="password" autocomplete=${first ? 'new-password' : 'current-password'} required minlength=${first ? 8 : 1} />
          </label>
          ${first
            ? html`<label class="field"><span>Repeat password</span>
                <input name="confirm" type="password" autocomplete="new-password" required />
              </label>`
            : nothing}
          ${this.error ? html`<p class="form-error" role="alert">${this.error}</p>` : nothing}
          <button class="btn btn-primary btn-block" type="submit" ?disabled=${this.busy}>${first ? 'Create admin and sign in' : 'Sign in'}</button>
        </form>
      </div>
    `;
  }
}
