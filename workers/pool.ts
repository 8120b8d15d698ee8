/**
 * The Piscina pool that runs node executions in worker threads, sized by the global agent cap
 * (config.maxAgents). Worker threads load the compiled task from dist/ (distRoot()).
 */
import path from 'node:path';
import { Piscina } from 'piscina';
import type { Config } from '../core/config.js';
import { fromErrorData } from '../core/errors.js';
import { distRoot } from '../core/paths.js';
import type { NodeOutcome, NodeTask } from './executors/index.js';
import type { TaskResult } from './task.js';

export interface NodePool {
  run(node: NodeTask): Promise<NodeOutcome>;
  close(): Promise<void>;
  readonly size: number;
}

export function createNodePool(config: Config): NodePool {
  const piscina = new Piscina({
    filename: path.join(distRoot(), 'workers', 'task.js'),
    maxThreads: config.maxAgents,
    minThreads: 0,
    // Keep threads warm between levels; idle ones exit after a minute.
    idleTimeout: 60_000,
    // A node waits for a free thread instead of being refused.
    maxQueue: 'auto',
    // Node tasks are long and asynchronous (an agent process); an idle thread should sleep in its event loop,
    // not block in Atomics.wait between tasks.
    atomics: 'disabled',
  });
  return {
    size: config.maxAgents,
    async run(node) {
      const r = (await piscina.run({ config, node })) as TaskResult;
      if (r.ok) return r.value;
      throw fromErrorData(r.error);
    },
    async close() {
      await piscina.destroy();
    },
  };
}
