/** Control nodes: conditional (evaluates its condition, output 'true' / 'false') and aggregator (joins parents). */
import { conditionSource, evaluateCondition } from '../../core/condition.js';
import { WfError } from '../../core/errors.js';
import { joinOutputs, parentOutputs, type NodeExecutor } from './types.js';

export const conditional: NodeExecutor = async (ctx) => {
  const cond = ctx.node.data.condition;
  if (!cond) throw new WfError('GRAPH_INVALID', `conditional '${ctx.node.id}' has no condition`);
  const src = conditionSource(ctx.graph, ctx.node.id);
  if (!src) throw new WfError('GRAPH_INVALID', `conditional '${ctx.node.id}' has no node to test`);
  const step = ctx.latest.get(src);
  const taken = evaluateCondition(cond, step ? { status: step.status, output: step.output ?? '' } : undefined);
  return taken ? 'true' : 'false';
};

export const aggregator: NodeExecutor = async (ctx) => joinOutputs(parentOutputs(ctx));
