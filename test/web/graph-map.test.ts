import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Graph, GraphNode } from '../../core/graph.js';
import { COLUMN_GAP, graphToElements, latestStepStatus, type NodeElement } from '../../web-components/src/lib/graph-map.js';
import { LANE_PALETTE } from '../../web-components/src/lib/palette.js';

const node = (id: string, type: GraphNode['type'] = 'specialistAgent', extra: Partial<GraphNode> = {}): GraphNode => ({ id, type, data: { label: id.toUpperCase(), objective: 'o' }, ...extra });
const edge = (s: string, t: string, extra = {}) => ({ id: `${s}-${t}`, source: s, target: t, ...extra });

/** a → b, a → c, b → d, c → d, d → e … a chain long enough to wrap the palette. */
function diamondChain(): Graph {
  const nodes = ['a', 'b', 'c', 'd'].map((i) => node(i));
  const edges = [edge('a', 'b'), edge('a', 'c'), edge('b', 'd'), edge('c', 'd')];
  for (let i = 0; i < 8; i++) {
    const prev = i === 0 ? 'd' : `x${i - 1}`;
    nodes.push(node(`x${i}`));
    edges.push(edge(prev, `x${i}`));
  }
  return { nodes, edges };
}

const Map_ = suite('web/graph-map');
const nodesOf = (els: ReturnType<typeof graphToElements>) => new Map(els.filter((e): e is NodeElement => e.group === 'nodes').map((e) => [e.data.id, e]));

Map_('graph-map :: nodes of one depth share palette[depth % 8]; depth is max(parents) + 1', () => {
  const els = nodesOf(graphToElements(diamondChain()));
  assert.is(els.get('a')!.data.depth, 0);
  assert.is(els.get('b')!.data.depth, 1);
  assert.is(els.get('c')!.data.lane, els.get('b')!.data.lane);
  assert.is(els.get('d')!.data.depth, 2);
  for (const e of els.values()) assert.is(e.data.lane, LANE_PALETTE[e.data.depth % 8]);
  // depth 8 wraps to the first colour, depth 9 to the second
  assert.is(els.get('x5')!.data.depth, 8);
  assert.is(els.get('x5')!.data.lane, '#7c3aed');
  assert.is(els.get('x6')!.data.lane, '#2563eb');
});

Map_('graph-map :: the depth layout puts each depth in its own column, siblings centred', () => {
  const els = nodesOf(graphToElements(diamondChain(), { layout: 'depth' }));
  assert.is(els.get('a')!.position.x, 0);
  assert.is(els.get('b')!.position.x, COLUMN_GAP);
  assert.is(els.get('b')!.position.x, els.get('c')!.position.x);
  assert.is(els.get('b')!.position.y, -els.get('c')!.position.y);
  assert.is(els.get('a')!.position.y, 0);
});

Map_('graph-map :: stored positions win in the builder; missing ones get the depth layout', () => {
  const g: Graph = { nodes: [node('a', 'specialistAgent', { position: { x: 500, y: -40 } }), node('b')], edges: [edge('a', 'b')] };
  const stored = nodesOf(graphToElements(g, { layout: 'stored' }));
  assert.equal(stored.get('a')!.position, { x: 500, y: -40 });
  assert.equal(stored.get('b')!.position, { x: COLUMN_GAP, y: 0 });
  assert.equal(nodesOf(graphToElements(g)).get('a')!.position, { x: 0, y: 0 });
});

Map_('graph-map :: status, generated and invalid marks reach the element data; edges keep branch labels', () => {
  const g: Graph = {
    nodes: [node('c', 'conditional'), node('t'), { ...node('p'), data: { label: '', objective: 'o', generatedBy: 'sup' } }],
    edges: [edge('c', 't', { sourceHandle: 'true' }), edge('c', 'p', { sourceHandle: 'false', data: { generatedBy: 'sup' } }), edge('c', 'ghost')],
  };
  const els = graphToElements(g, { statuses: { t: 'running' }, invalid: new Set(['p']) });
  const nodes = nodesOf(els);
  assert.is(nodes.get('t')!.data.status, 'running');
  assert.is(nodes.get('t')!.data.statusLabel, 'Running');
  assert.is(nodes.get('c')!.data.statusLabel, '');
  assert.is(nodes.get('p')!.data.generated, 'yes');
  assert.is(nodes.get('p')!.data.invalid, 'yes');
  assert.is(nodes.get('p')!.data.label, 'p', 'an empty label shows the id');
  const edges = els.filter((e) => e.group === 'edges');
  assert.equal(edges.map((e) => e.data.id), ['c-t', 'c-p'], 'edges to missing nodes are dropped');
  assert.equal(edges.map((e) => (e.data as { label: string }).label), ['true', 'false']);
});

Map_('graph-map :: a cycle (mid-edit) does not throw: every node falls back to depth 0', () => {
  const g: Graph = { nodes: [node('a'), node('b')], edges: [edge('a', 'b'), edge('b', 'a')] };
  const els = nodesOf(graphToElements(g));
  assert.is(els.get('a')!.data.depth, 0);
  assert.is(els.get('b')!.data.depth, 0);
});

Map_('graph-map :: the latest attempt of each node gives its status', () => {
  assert.equal(
    latestStepStatus([
      { node_id: 'a', status: 'failed', attempt: 1 },
      { node_id: 'a', status: 'completed', attempt: 2 },
      { node_id: 'b', status: 'running' },
    ]),
    { a: 'completed', b: 'running' },
  );
});

Map_.run();
