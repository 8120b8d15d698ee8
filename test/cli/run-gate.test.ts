import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveApproval } from '../../queue/lifecycle.js';
import { getApproval } from '../../sql/approvals.js';
import { waitFor, WFCTL_BIN } from '../helpers.js';
import { cliHome, node, stripAnsi, type CliHome, inPty, start, type Proc } from './fixture.js';

/** Approval gates in `wfctl run`: the prompt on a terminal, the printed how-to elsewhere, resolution from outside. */
const T = suite('cli/run at an approval gate');


function gated(h: CliHome, noteRequired: boolean): void {
  h.workflow('Gated', {
    nodes: [node('g', 'approve the change', { noteRequired }, 'humanApproval'), node('a', 'ship [[fake:answer=shipped]]')],
    edges: [{ id: 'g->a', source: 'g', target: 'a' }],
  });
}

T('gate :: off a terminal it prints the approval id and waits; resolving it elsewhere continues the run', async () => {
  const h = cliHome();
  gated(h, false);
  const p = start(process.execPath, [WFCTL_BIN, 'run', 'gated', '--repo', h.repo], h.env);
  const m = await waitFor(() => /approval required at 'G' \(approval ([0-9a-f-]{36}),.*POST \/api\/workflow-runs\/([0-9a-f-]{36})\/\{approve \| reject \| request-revision\}/.exec(p.out()), 20_000, 50, 'the approval line');
  resolveApproval(h.db, { runId: m[2], approvalId: m[1], action: 'approve', note: 'looks fine', user: null });
  assert.is(await p.exit, 0, p.out());
  assert.match(p.out(), /approval 'G' \(g\) approved by someone/);
  assert.match(p.out(), /node 'A' \(a\) completed/);
  // Rejected elsewhere: the run fails, exit 1.
  const q = start(process.execPath, [WFCTL_BIN, 'run', 'gated', '--repo', h.repo, '--json'], h.env);
  const m2 = await waitFor(() => /approval ([0-9a-f-]{36}),.*workflow-runs\/([0-9a-f-]{36})\//.exec(q.out()), 20_000, 50, 'the approval line on stderr');
  resolveApproval(h.db, { runId: m2[2], approvalId: m2[1], action: 'reject', note: 'no', user: null });
  assert.is(await q.exit, 1, q.out());
});

T('gate :: on a terminal it prompts; request revision needs the note the gate requires', async () => {
  const h = cliHome();
  gated(h, true);
  const p = inPty(h, ['run', 'gated', '--repo', h.repo]);
  await waitFor(() => /\[a\]pprove \/ \[r\]eject \/ request re\[v\]ision\? /.test(stripAnsi(p.out())), 20_000, 50, 'the prompt');
  assert.match(stripAnsi(p.out()), /Approval required: 'G' \(approval [0-9a-f-]{36}, expires /);
  p.child.stdin!.write('v\r');
  await waitFor(() => /Note \(required\): /.test(p.out()), 10_000, 20, 'the note prompt');
  p.child.stdin!.write('\r');
  await waitFor(() => /this gate requires a note/.test(p.out()), 10_000, 20, 'the note refusal');
  p.child.stdin!.write('needs more tests\r');
  assert.is(await p.exit, 1, p.out());
  const a = h.db.prepare('SELECT * FROM approval_requests').get() as { id: string };
  const row = getApproval(h.db, a.id)!;
  assert.is(row.status, 'revision_requested');
  assert.is(row.resolution_comment, 'needs more tests');
  assert.match(row.resolved_by_name!, /\(terminal\)$/);
});

T('gate :: a prompt closes when the approval is resolved in the UI / API, and the run goes on', async () => {
  const h = cliHome();
  gated(h, false);
  const p = inPty(h, ['run', 'gated', '--repo', h.repo]);
  await waitFor(() => /request re\[v\]ision\? /.test(stripAnsi(p.out())), 20_000, 50, 'the prompt');
  const a = h.db.prepare('SELECT * FROM approval_requests').get() as { id: string; run_id: string };
  resolveApproval(h.db, { runId: a.run_id, approvalId: a.id, action: 'approve', note: null, user: null });
  assert.is(await p.exit, 0, p.out());
  const text = stripAnsi(p.out());
  assert.match(text, /approval 'G' was approved elsewhere/);
  assert.match(text, /A \[claude\] · completed/);
});


T.run();
