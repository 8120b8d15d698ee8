#!/usr/bin/env node
/** The wfctl executable: the only place that touches process.argv and the exit code. */
import { main } from './index.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`wfctl: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
