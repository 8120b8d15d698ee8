/**
 * Terminal prompts with node:readline: the approval gate prompt (approve / reject / request revision, with a
 * note, required when the gate says so) and hidden password input. Both write to stderr, so stdout keeps only
 * the command's result.
 */
import { createInterface } from 'node:readline/promises';
import type { ApprovalAction } from '../core/graph.js';
import type { Approval } from '../sql/approvals.js';
import type { ApprovalPrompter } from './local-run.js';

const KEYS: Record<ApprovalAction, { key: string; label: string }> = {
  approve: { key: 'a', label: '[a]pprove' },
  reject: { key: 'r', label: '[r]eject' },
  request_revision: { key: 'v', label: 'request re[v]ision' },
};

/** Maps an answer ("a", "approve", "request-revision", …) to an allowed action, or undefined. */
export function parseAction(answer: string, allowed: readonly ApprovalAction[]): ApprovalAction | undefined {
  const a = answer.trim().toLowerCase().replace(/[-\s]/g, '_');
  return allowed.find((x) => x === a || KEYS[x].key === a || (x === 'request_revision' && (a === 'revision' || a === 'revise')));
}

/** The gate prompt on the terminal (stdin + stderr). Ctrl-C while prompting interrupts like anywhere else. */
export function terminalPrompter(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WritableStream = process.stderr): ApprovalPrompter {
  return {
    async ask(a: Approval, signal: AbortSignal) {
      if (signal.aborted) return undefined;
      const rl = createInterface({ input, output, terminal: true });
      // In raw mode Ctrl-C reaches readline as a key, not as a signal: hand it to the process's SIGINT handling.
      rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
      const onAbort = () => rl.close();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        output.write(`\nApproval required: '${a.title}' (approval ${a.id}, expires ${a.expires_at})\n` +
          `It can also be resolved in the web UI; this prompt closes if that happens.\n`);
        const choices = a.allowed_actions.map((x) => KEYS[x].label).join(' / ');
        let action: ApprovalAction | undefined;
        while (!action) {
          action = parseAction(await rl.question(`${choices}? `, { signal }), a.allowed_actions);
          if (!action) output.write(`please answer one of: ${a.allowed_actions.map((x) => KEYS[x].key).join(', ')}\n`);
        }
        let note = '';
        for (;;) {
          note = (await rl.question(a.note_required ? 'Note (required): ' : 'Note (optional, Enter to skip): ', { signal })).trim();
          if (note || !a.note_required) break;
          output.write('this gate requires a note: say why before you submit\n');
        }
        return { action, note };
      } catch (e) {
        if (signal.aborted || (e as { code?: string }).code === 'ABORT_ERR' || (e as { code?: string }).code === 'ERR_USE_AFTER_CLOSE') return undefined;
        throw e;
      } finally {
        signal.removeEventListener('abort', onAbort);
        rl.close();
      }
    },
  };
}

/** Reads a line without echoing it (raw mode); Ctrl-C exits 130, Ctrl-D ends the input. */
export function askHidden(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<string> {
  return new Promise((resolve) => {
    let value = '';
    // Raw mode before the question appears: whatever is typed once it shows is never echoed.
    input.setRawMode?.(true);
    output.write(question);
    input.resume();
    input.setEncoding('utf8');
    const done = () => {
      input.setRawMode?.(false);
      input.pause();
      input.off('data', onData);
      output.write('\n');
      resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') {
          input.setRawMode?.(false);
          output.write('\n');
          process.exit(130);
        }
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    input.on('data', onData);
  });
}

/** All of stdin as text (a password piped in: `echo secret | wfctl user create bob`). */
export async function readStdin(input: NodeJS.ReadStream = process.stdin): Promise<string> {
  let s = '';
  input.setEncoding('utf8');
  for await (const chunk of input) s += chunk;
  return s;
}
