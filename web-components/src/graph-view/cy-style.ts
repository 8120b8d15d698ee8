/** The cytoscape stylesheet shared by the run graph and the builder canvas. */
import type cytoscape from 'cytoscape';

export const CY_STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      shape: 'round-rectangle',
      width: 172,
      height: 64,
      'background-color': '#ffffff',
      'border-width': 2,
      'border-color': 'data(lane)',
      label: 'data(display)',
      'text-wrap': 'wrap',
      'text-max-width': '156px',
      'text-valign': 'center',
      'text-halign': 'center',
      'font-size': 11,
      'font-family': 'Inter, system-ui, sans-serif',
      color: '#0f172a',
      'underlay-color': 'data(lane)',
      'underlay-opacity': 0.08,
      'underlay-padding': 0,
      'underlay-shape': 'round-rectangle',
    },
  },
  { selector: 'node[status = "running"]', style: { 'border-width': 4 } },
  { selector: 'node[status = "completed"]', style: { 'background-color': '#f0fdf4' } },
  { selector: 'node[status = "failed"]', style: { 'background-color': '#fef2f2' } },
  { selector: 'node[status = "waiting_approval"]', style: { 'background-color': '#fffbeb' } },
  { selector: 'node[status = "skipped"], node[status = "cancelled"]', style: { opacity: 0.6 } },
  { selector: 'node[generated = "yes"]', style: { 'border-style': 'dashed' } },
  { selector: 'node[invalid = "yes"]', style: { 'outline-width': 3, 'outline-color': '#dc2626', 'outline-offset': 3 } as cytoscape.Css.Node },
  { selector: 'node:selected', style: { 'overlay-color': '#2563eb', 'overlay-opacity': 0.12, 'overlay-padding': 6, 'border-width': 4 } },
  {
    selector: 'edge',
    style: {
      width: 2,
      'line-color': '#94a3b8',
      'target-arrow-color': '#94a3b8',
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
      label: 'data(label)',
      'font-size': 10,
      color: '#475569',
      'text-background-color': '#ffffff',
      'text-background-opacity': 1,
      'text-background-padding': '2px',
    },
  },
  { selector: 'edge[generated = "yes"]', style: { 'line-style': 'dashed' } },
  { selector: 'edge:selected', style: { 'line-color': '#2563eb', 'target-arrow-color': '#2563eb', width: 3 } },
];

/** The label drawn in a node: name, type, and status (or "generated") on the last line. */
export function nodeDisplay(d: { label: string; typeLabel: string; statusLabel: string; generated: string }): string {
  const kind = [d.typeLabel, d.generated === 'yes' ? 'generated' : ''].filter(Boolean).join(' · ');
  return d.statusLabel ? `${d.label}\n${kind}\n● ${d.statusLabel}` : `${d.label}\n${kind}`;
}
