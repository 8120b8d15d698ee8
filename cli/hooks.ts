/** The pre-commit gate scaffold (design.md §10) and its installation into a repository's hooks folder. */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WfError } from '../core/errors.js';
import { distRoot } from '../core/paths.js';

const MARKER = '# wfctl pre-commit gate';

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The hook script. It calls this installation's wfctl by absolute path (WFCTL_BIN overrides), so the gate
 * works even where wfctl is not on PATH, as git hooks run with a minimal environment.
 */
export function hookScript(opts: { defaultWorkflow: string; node?: string; bin?: string }): string {
  const node = opts.node ?? process.execPath;
  const bin = opts.bin ?? path.join(distRoot(), 'cli', 'bin.js');
  return `#!/bin/sh
${MARKER} (installed by \`wfctl hook pre-commit\`; edit WFCTL_WORKFLOW_ID below or set it in the environment)
WFCTL_WORKFLOW_ID="\${WFCTL_WORKFLOW_ID:-${opts.defaultWorkflow.replace(/[`"$\\]/g, '\\$&')}}"
if [ -z "$WFCTL_WORKFLOW_ID" ]; then
  echo "wfctl pre-commit: WFCTL_WORKFLOW_ID is not set; the workflow gate is skipped and the commit allowed" >&2
  exit 0
fi
repo=$(git rev-parse --show-toplevel) || exit 1
if [ -n "$WFCTL_BIN" ]; then
  "$WFCTL_BIN" run "$WFCTL_WORKFLOW_ID" --repo "$repo"
else
  ${shellQuote(node)} ${shellQuote(bin)} run "$WFCTL_WORKFLOW_ID" --repo "$repo"
fi
status=$?
if [ $status -ne 0 ]; then
  echo "wfctl pre-commit: workflow '$WFCTL_WORKFLOW_ID' did not complete (exit $status); commit blocked. 'git commit --no-verify' skips the gate." >&2
  exit 1
fi
exit 0
`;
}

export interface InstallResult {
  status: 'installed' | 'replaced' | 'exists';
  path: string;
}

/** Writes the hook; an existing hook that is not ours is left alone unless force (then backed up). */
export function installPreCommitHook(repo: string, script: string, opts: { force: boolean }): InstallResult {
  const r = spawnSync('git', ['rev-parse', '--git-path', 'hooks'], { cwd: repo, encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new WfError('BAD_REQUEST', `${path.resolve(repo)} is not a git repository (${(r.stderr || r.error?.message || '').trim().split('\n')[0]})`);
  }
  const hooksDir = path.resolve(repo, r.stdout.trim());
  const file = path.join(hooksDir, 'pre-commit');
  let status: InstallResult['status'] = 'installed';
  if (existsSync(file)) {
    const ours = readFileSync(file, 'utf8').includes(MARKER);
    if (!ours && !opts.force) return { status: 'exists', path: file };
    if (!ours) copyFileSync(file, `${file}.wfctl-backup`);
    status = 'replaced';
  }
  mkdirSync(hooksDir, { recursive: true });
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  return { status, path: file };
}
