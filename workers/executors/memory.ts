/** memoryWrite: stores a memory entry (key, scope, sensitivity, value) and emits memory.write. */
import { slugify } from '../../core/graph.js';
import { writeMemory } from '../../sql/memory.js';
import { joinOutputs, parentOutputs, type NodeExecutor } from './types.js';

/**
 * `value` is a template: `{{outputs}}` is the parents' outputs joined, `{{node:<id>}}` one parent's output.
 * No value means the parents' outputs.
 */
export function renderValue(template: string | undefined, parents: Array<{ id: string; label: string; output: string }>): string {
  const all = joinOutputs(parents);
  if (template === undefined || template.trim() === '') return all;
  return template
    .replace(/\{\{\s*outputs\s*\}\}/g, all)
    .replace(/\{\{\s*node:([^}\s]+)\s*\}\}/g, (_m, id: string) => parents.find((p) => p.id === id)?.output ?? '');
}

export const memoryWrite: NodeExecutor = async (ctx) => {
  const d = ctx.node.data;
  const key = d.key?.trim() || slugify(d.label);
  const sensitivity = d.sensitivity ?? 'normal';
  const value = renderValue(d.value, parentOutputs(ctx));
  ctx.db.transaction(() =>
    writeMemory(ctx.db, { runId: ctx.run.id, nodeId: ctx.node.id, key, value, scope: d.memoryScope ?? 'workflow', sensitivity, generatedBy: d.generatedBy ?? null }),
  ).immediate();
  // A sensitive value never enters the run context (which later prompts and the UI show).
  return sensitivity === 'sensitive' ? `stored sensitive memory '${key}' (value withheld)` : value;
};
