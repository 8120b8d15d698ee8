/**
 * A completed run's final report (the `run.report` event): the outputs of its report writers in graph order,
 * or, in a workflow without one, the outputs of its completed sink nodes (nodes nothing depends on).
 */
import type { Graph } from './graph.js';

/** Reports longer than this are cut (with a note): the event log is not the place for whole transcripts. */
export const REPORT_MAX_CHARS = 64 * 1024;

export interface FinalReport {
  /** Nodes whose outputs make up the report, in graph order. */
  node_ids: string[];
  report: string;
  truncated: boolean;
}

export function finalReport(graph: Graph, outputs: ReadonlyMap<string, string>): FinalReport {
  const done = graph.nodes.filter((n) => outputs.has(n.id));
  const writers = done.filter((n) => n.type === 'reportWriter');
  const sources = new Set(graph.edges.map((e) => e.source));
  const chosen = writers.length ? writers : done.filter((n) => !sources.has(n.id));
  const text = chosen.length === 1
    ? outputs.get(chosen[0].id)!
    : chosen.map((n) => `## ${n.data.label}\n\n${outputs.get(n.id)}`).join('\n\n');
  const truncated = text.length > REPORT_MAX_CHARS;
  return {
    node_ids: chosen.map((n) => n.id),
    report: truncated ? `${text.slice(0, REPORT_MAX_CHARS)}\n\n[report truncated at ${REPORT_MAX_CHARS} characters; the full outputs are on the run's steps]` : text,
    truncated,
  };
}
