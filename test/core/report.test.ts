import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Graph, GraphNode } from '../../core/graph.js';
import { finalReport, REPORT_MAX_CHARS } from '../../core/report.js';

const Report = suite('core/report');
const n = (id: string, type: GraphNode['type'] = 'specialistAgent'): GraphNode => ({ id, type, data: { label: id.toUpperCase(), objective: id } });
const e = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

Report('report :: the report writers\' outputs, in graph order', () => {
  const g: Graph = { nodes: [n('a'), n('r2', 'reportWriter'), n('r1', 'reportWriter')], edges: [e('a', 'r2'), e('a', 'r1')] };
  const r = finalReport(g, new Map([['a', 'work'], ['r1', 'one'], ['r2', 'two']]));
  assert.equal(r.node_ids, ['r2', 'r1']);
  assert.is(r.report, '## R2\n\ntwo\n\n## R1\n\none');
});

Report('report :: without a report writer, the completed sinks; a single one is the report as it is', () => {
  const g: Graph = { nodes: [n('a'), n('b'), n('c')], edges: [e('a', 'b'), e('a', 'c')] };
  assert.equal(finalReport(g, new Map([['a', 'x'], ['b', 'B says']])), { node_ids: ['b'], report: 'B says', truncated: false });
});

Report('report :: a long report is cut with a note', () => {
  const g: Graph = { nodes: [n('r', 'reportWriter')], edges: [] };
  const r = finalReport(g, new Map([['r', 'x'.repeat(REPORT_MAX_CHARS + 10)]]));
  assert.ok(r.truncated);
  assert.match(r.report, /\[report truncated at 65536 characters/);
});

Report.run();
