/**
 * Agent runtime costs (`npm run bench -- agents`), printed in ms:
 *   - preparing a working copy: `git clone --shared` of a repository with ~500 files, and a plain-folder copy
 *     of the same files (median of BENCH_COPIES, default 10);
 *   - starting a confined agent: bubblewrap + the fake claude to completion, against the same fake run
 *     unconfined (median of BENCH_STARTS, default 20). The difference is the sandbox's start-up cost.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../core/config.js';
import { packageRoot } from '../core/paths.js';
import { runAgent } from '../workers/agents/run.js';
import { detectSandbox } from '../workers/sandbox/detect.js';
import { prepareWorkingCopy } from '../workers/workspace.js';

const COPIES = Number(process.env.BENCH_COPIES || 10);
const STARTS = Number(process.env.BENCH_STARTS || 20);
const FILES = 500;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (n: number) => n.toFixed(1).padStart(8);

function sampleTree(dir: string): void {
  for (let i = 0; i < FILES; i++) {
    const sub = path.join(dir, `pkg${i % 20}`, `mod${i % 7}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, `file${i}.ts`), `export const v${i} = ${i};\n`.repeat(40));
  }
}

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'wfctl-bench-agents-'));
  try {
    const config = loadConfig({ WFCTL_HOME: path.join(tmp, 'home') });
    const repo = path.join(tmp, 'repo');
    const plain = path.join(tmp, 'plain');
    mkdirSync(repo);
    mkdirSync(plain);
    sampleTree(repo);
    sampleTree(plain);
    const git = (...a: string[]) => spawnSync('git', a, { cwd: repo, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'init');

    const timeCopies = async (src: string, tag: string) => {
      const ms: number[] = [];
      for (let i = 0; i < COPIES; i++) {
        const t = performance.now();
        await prepareWorkingCopy(config, `${tag}-${i}`, src);
        ms.push(performance.now() - t);
      }
      return median(ms);
    };
    console.log(`working copy of ${FILES} files (median of ${COPIES}):`);
    console.log(`  git clone --shared ${fmt(await timeCopies(repo, 'git'))} ms`);
    console.log(`  plain folder copy  ${fmt(await timeCopies(plain, 'plain'))} ms`);

    process.env.PATH = `${path.join(packageRoot(), 'test', 'fixtures', 'bin')}:${process.env.PATH}`;
    const copy = await prepareWorkingCopy(config, 'start', repo);
    const timeStarts = async (sandbox: boolean) => {
      const ms: number[] = [];
      for (let i = 0; i < STARTS; i++) {
        const t = performance.now();
        const r = await runAgent({ agent: 'claude', prompt: 'hello', cwd: copy, write: true, runtime: 'direct', sandbox, timeoutMs: 30_000 });
        if (r.status !== 'completed') throw new Error(`agent failed: ${r.error}`);
        ms.push(performance.now() - t);
      }
      return median(ms);
    };
    console.log(`fake claude run to completion (median of ${STARTS}):`);
    const bare = await timeStarts(false);
    console.log(`  unconfined         ${fmt(bare)} ms`);
    if (detectSandbox() === 'bwrap') {
      const boxed = await timeStarts(true);
      console.log(`  bubblewrap         ${fmt(boxed)} ms  (+${(boxed - bare).toFixed(1)} ms for the sandbox)`);
    } else {
      console.log('  bubblewrap         unavailable on this host');
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
