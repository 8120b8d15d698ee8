/** Prompt assembly for agent nodes (design §6). Pure. */
import type { GraphNode } from './graph.js';
import type { ContextEntry } from './context.js';

/** What every agent is told about its answer, last in the prompt. */
export const OUTPUT_INSTRUCTIONS =
  'Output: work in the current directory only. End with a concise summary of what you did and found; later steps read that summary.';

/**
 * Order: role line, attached skills' prompt templates in list order, systemInstructions, objective, allowed
 * context, output instructions. `skills` must already be in the node's list order (missing ids dropped).
 */
export function assemblePrompt(node: Pick<GraphNode, 'id' | 'data'>, skills: Array<{ name: string; prompt_template: string }>, context: ContextEntry[]): string {
  const d = node.data;
  const parts: string[] = [];
  parts.push(`You are ${d.role?.trim() ? d.role.trim() : 'a software engineering agent'} (workflow step "${d.label}").`);
  for (const s of skills) if (s.prompt_template.trim()) parts.push(`Skill: ${s.name}\n${s.prompt_template.trim()}`);
  if (d.systemInstructions?.trim()) parts.push(d.systemInstructions.trim());
  parts.push(`Objective:\n${d.objective.trim()}`);
  if (context.length) {
    parts.push('Context from earlier steps:\n' + context.map((e) => `### ${e.label} (${e.node_id})\n${e.summary}`).join('\n\n'));
  }
  parts.push(OUTPUT_INSTRUCTIONS);
  return parts.join('\n\n');
}
