import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { conditionSource, evaluateCondition, isSkipped } from '../../core/condition.js';
import type { Graph, GraphNode } from '../../core/graph.js';

const Eval = suite('core/condition evaluateCondition');

Eval('ops :: contains, not_contains, equals, matches, succeeded', () => {
  const ok = { status: 'completed', output: 'tests PASSED\n' };
  assert.ok(evaluateCondition({ op: 'contains', value: 'PASSED' }, ok));
  assert.not.ok(evaluateCondition({ op: 'contains', value: 'FAILED' }, ok));
  assert.ok(evaluateCondition({ op: 'not_contains', value: 'FAILED' }, ok));
  assert.ok(evaluateCondition({ op: 'equals', value: 'tests PASSED' }, ok));
  assert.not.ok(evaluateCondition({ op: 'equals', value: 'tests' }, ok));
  assert.ok(evaluateCondition({ op: 'matches', value: '^tests\\s+pass' + '|PASS' }, ok));
  assert.ok(evaluateCondition({ op: 'succeeded' }, ok));
  assert.not.ok(evaluateCondition({ op: 'succeeded' }, { status: 'failed', output: '' }));
  assert.not.ok(evaluateCondition({ op: 'succeeded' }, undefined));
});

const n = (id: string, type: GraphNode['type'] = 'specialistAgent', data: Partial<GraphNode['data']> = {}): GraphNode => ({ id, type, data: { label: id, objective: 'x', ...data } });
const e = (source: string, target: string, sourceHandle?: string) => ({ id: `${source}-${target}`, source, target, sourceHandle });

const Skip = suite('core/condition isSkipped');

const graph: Graph = {
  nodes: [n('a'), n('if', 'conditional', { condition: { op: 'contains', value: 'yes' } }), n('t'), n('f'), n('after-f'), n('join')],
  edges: [e('a', 'if'), e('if', 't', 'true'), e('if', 'f', 'false'), e('f', 'after-f'), e('t', 'join'), e('after-f', 'join')],
};

Skip('branches :: the untaken side is skipped, the taken side runs', () => {
  const parents = new Map([['if', { status: 'completed', output: 'true' }]]);
  assert.not.ok(isSkipped(graph, 't', parents));
  assert.ok(isSkipped(graph, 'f', parents));
});

Skip('branches :: a node all of whose parents were skipped is skipped; one live parent keeps it', () => {
  assert.ok(isSkipped(graph, 'after-f', new Map([['f', { status: 'skipped' }]])));
  assert.not.ok(isSkipped(graph, 'join', new Map([['t', { status: 'completed' }], ['after-f', { status: 'skipped' }]])));
  assert.not.ok(isSkipped(graph, 'a', new Map()));
});

Skip('source :: condition.source wins, else the single parent', () => {
  assert.is(conditionSource(graph, 'if'), 'a');
  const g2: Graph = { nodes: [n('x'), n('y'), n('c', 'conditional', { condition: { op: 'succeeded', source: 'y' } })], edges: [e('x', 'c'), e('y', 'c')] };
  assert.is(conditionSource(g2, 'c'), 'y');
});

Eval.run();
Skip.run();
