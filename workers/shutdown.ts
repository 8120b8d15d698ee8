/**
 * Graceful-shutdown signalling between a stopping scheduler and the nodes it is running (issue 9).
 *
 * When `wfctl serve` / `wfctl worker` gets SIGTERM the scheduler stops leasing and lets in-flight nodes finish
 * for config.shutdownGraceMs. Nodes still running after that are interrupted: their agent process groups are
 * killed (runAgent's abort path), their step is closed as interrupted, and the job's lease is released so
 * another process runs the node again (at-least-once). Nodes run inline in the scheduler's thread or on the
 * Piscina pool's worker threads, so the interruption travels over a BroadcastChannel (it reaches every thread
 * of the process) and names the scheduler owner, so several schedulers in one process (tests) do not
 * interrupt each other's nodes.
 */
import { BroadcastChannel } from 'node:worker_threads';

const CHANNEL = 'wfctl-scheduler-shutdown';

/** Abort reason of a node stopped because its process is shutting down (not a cancellation, not a failure). */
export class NodeInterrupted extends Error {
  constructor(message = 'interrupted: the process running this node shut down before it finished; it runs again when the run is picked up') {
    super(message);
    this.name = 'NodeInterrupted';
  }
}

/** Tells every node of scheduler `owner`, in every thread of this process, to stop now. */
export function broadcastInterrupt(owner: string): void {
  const ch = new BroadcastChannel(CHANNEL);
  ch.postMessage({ owner });
  ch.close();
}

/**
 * Calls `onInterrupt` when scheduler `owner` interrupts its nodes. Returns the unsubscribe function (call it
 * when the node ends). The channel is unref'd so an idle listener keeps no thread alive.
 */
export function onInterrupt(owner: string | undefined, onInterrupt: () => void): () => void {
  if (!owner) return () => {};
  const ch = new BroadcastChannel(CHANNEL);
  ch.unref();
  ch.onmessage = (ev) => {
    if ((ev as { data?: { owner?: string } }).data?.owner === owner) onInterrupt();
  };
  return () => ch.close();
}
