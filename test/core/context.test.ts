import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { joinLevel, summarize, SUMMARY_MAX_CHARS, visibleContext, type ContextEntry } from '../../core/context.js';
import type { Graph, GraphNode } from '../../core/graph.js';

const n = (id: string, data: Partial<GraphNode['data']> = {}): GraphNode => ({ id, type: 'specialistAgent', data: { label: id.toUpperCase(), objective: 'x', ...data } });

const Join = suite('core/context joinLevel');

Join('join :: fixed node order whatever order outputs arrived in', () => {
  const graph: Graph = { nodes: [n('a'), n('b'), n('c')], edges: [] };
  const outputs = new Map([['c', 'C out'], ['a', 'A out'], ['b', 'B out']]);
  const ctx = joinLevel([], graph, { index: 0, nodeIds: ['a', 'b', 'c'] }, outputs);
  assert.equal(ctx.map((e) => e.node_id), ['a', 'b', 'c']);
  assert.equal(ctx.map((e) => e.summary), ['A out', 'B out', 'C out']);
});

Join('join :: nodes without output are left out; a re-run replaces the earlier entry', () => {
  const graph: Graph = { nodes: [n('a'), n('b')], edges: [] };
  let ctx = joinLevel([], graph, { index: 0, nodeIds: ['a', 'b'] }, new Map([['a', 'first']]));
  ctx = joinLevel(ctx, graph, { index: 0, nodeIds: ['a', 'b'] }, new Map([['a', 'second'], ['b', 'B']]));
  assert.equal(ctx.map((e) => [e.node_id, e.summary]), [['a', 'second'], ['b', 'B']]);
});

Join('summarize :: long outputs are cut', () => {
  const s = summarize('x'.repeat(SUMMARY_MAX_CHARS + 50));
  assert.ok(s.length < SUMMARY_MAX_CHARS + 20);
  assert.match(s, /truncated/);
});

const Scope = suite('core/context visibleContext');

const entry = (node_id: string, scope: ContextEntry['scope'], team: string): ContextEntry => ({ node_id, label: node_id, level: 0, scope, team, summary: node_id });

Scope('scope :: workflow entries reach every node', () => {
  const ctx = [entry('w', 'workflow', 'w')];
  assert.equal(visibleContext(ctx, n('anyone')).map((e) => e.node_id), ['w']);
});

Scope('scope :: team entries reach the same supervisor\'s nodes and the supervisor itself only', () => {
  const ctx = [entry('t1', 'team', 'sup')];
  assert.equal(visibleContext(ctx, n('t2', { generatedBy: 'sup' })).length, 1);
  assert.equal(visibleContext(ctx, n('sup')).length, 1);
  assert.equal(visibleContext(ctx, n('other', { generatedBy: 'sup2' })).length, 0);
  assert.equal(visibleContext(ctx, n('loose')).length, 0);
});

Scope('scope :: agent_private entries reach only the writer', () => {
  const ctx = [entry('p', 'agent_private', 'p')];
  assert.equal(visibleContext(ctx, n('p')).length, 1);
  assert.equal(visibleContext(ctx, n('q')).length, 0);
});

Join.run();
Scope.run();
