import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { agentRequest, buildPrompt } from '../../../workers/executors/agent.js';
import { getRun } from '../../../sql/runs.js';
import { latestSteps } from '../../../sql/steps.js';
import { edge, engineFixture, node, scheduler, startRun, waitStatus } from '../../queue/fixture.js';

const Agent = suite('workers/executors agent');

function addSkill(f: ReturnType<typeof engineFixture>, name: string, template: string): string {
  const id = randomUUID();
  f.db.prepare('INSERT INTO skills (id, name, prompt_template) VALUES (?, ?, ?)').run(id, name, template);
  return id;
}

Agent('prompt :: skills in the node\'s list order between the role line and systemInstructions; unknown ids dropped', () => {
  const f = engineFixture();
  const s1 = addSkill(f, 'one', 'SKILL-ONE-TEXT');
  const s2 = addSkill(f, 'two', 'SKILL-TWO-TEXT');
  const n = node('a', 'OBJ', { role: 'ROLE', systemInstructions: 'SYS', skills: [s2, 'missing', s1] });
  const id = startRun(f, { nodes: [n], edges: [] });
  const p = buildPrompt({ db: f.db, run: getRun(f.db, id)!, node: n });
  const at = ['ROLE', 'SKILL-TWO-TEXT', 'SKILL-ONE-TEXT', 'SYS', 'OBJ'].map((x) => p.indexOf(x));
  assert.ok(at.every((i) => i >= 0));
  assert.equal([...at].sort((a, b) => a - b), at);
});

Agent('defaults :: claude, direct runtime, model from node data, cwd the working copy, read-only unless write', () => {
  const f = engineFixture();
  const id = startRun(f, { nodes: [node('a')], edges: [] });
  const run = { ...getRun(f.db, id)!, workdir: '/copy' };
  const r = agentRequest({ db: f.db, config: f.config, run, node: node('a', 'x', { model: 'sonnet' }) });
  assert.equal([r.agent, r.runtime, r.model, r.cwd, r.write, r.sandbox], ['claude', 'direct', 'sonnet', '/copy', false, false]);
  const r2 = agentRequest({ db: f.db, config: f.config, run: { ...run, write: 1 }, node: node('b', 'x', { sandboxAgent: 'codex', runtime: 'container' }) });
  assert.equal([r2.agent, r2.runtime, r2.write], ['codex', 'container', true]);
  assert.is(r2.image, undefined, 'no image named: the container module picks WFCTL_AGENT_IMAGE or its default');
  const r3 = agentRequest({ db: f.db, config: f.config, run, node: node('c', 'x', { runtime: 'container', image: 'ghcr.io/acme/agents:1.2' }) });
  assert.is(r3.image, 'ghcr.io/acme/agents:1.2');
  assert.is(r.runner, undefined, 'in-process unless the config names a host runner');
  const r4 = agentRequest({ db: f.db, config: { ...f.config, runnerUrl: 'http://host.docker.internal:8091' }, run, node: node('d') });
  assert.equal(r4.runner, { url: 'http://host.docker.internal:8091', home: f.config.home });
});

Agent('run :: each CLI runs as an agent node; its final answer is the step output', async () => {
  const f = engineFixture();
  const s = scheduler(f);
  try {
    const id = startRun(f, {
      nodes: [
        node('c', 'c [[fake:answer=FROM-CLAUDE]]', { sandboxAgent: 'claude' }),
        node('x', 'x [[fake:answer=FROM-CODEX]]', { sandboxAgent: 'codex' }, 'reportWriter'),
        node('g', 'g [[fake:answer=FROM-GEMINI]]', { sandboxAgent: 'gemini' }, 'supervisorAgent'),
      ],
      edges: [edge('c', 'x'), edge('x', 'g')],
    });
    assert.is((await waitStatus(f.db, id, ['completed', 'failed'])).status, 'completed', JSON.stringify(latestSteps(f.db, id).get('x')));
    const st = latestSteps(f.db, id);
    assert.equal([st.get('c')!.output, st.get('x')!.output, st.get('g')!.output], ['FROM-CLAUDE', 'FROM-CODEX', 'FROM-GEMINI']);
    assert.equal(f.invocations().map((i) => i.agent), ['claude', 'codex', 'gemini']);
    const agentRuns = f.db.prepare('SELECT node_id, step_run_id, status FROM agent_runs WHERE run_id = ? ORDER BY started_at').all(id) as Array<Record<string, string>>;
    assert.equal(agentRuns.map((r) => [r.node_id, r.status]), [['c', 'completed'], ['x', 'completed'], ['g', 'completed']]);
    assert.is(agentRuns[0].step_run_id, st.get('c')!.id);
  } finally {
    await s.stop();
  }
});

Agent.run();
