/** Reading the fake CLIs' invocation log (WFCTL_FAKE_LOG, one JSON line per invocation). */
import { existsSync, readFileSync } from 'node:fs';

export interface FakeInvocation {
  agent: string;
  argv: string[];
  cwd: string;
  pid: number;
  env: Record<string, string>;
  start: number;
  end: number | null;
  exit?: number;
  child_pid?: number;
  signal?: string;
}

export function readFakeLog(file: string): FakeInvocation[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}
