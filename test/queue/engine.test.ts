import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../server/server.js';
import { testConfig } from '../helpers.js';

const Embedded = suite('queue/engine embedded in serve');

Embedded('serve :: the embedded scheduler runs and health reports it live', async () => {
  const server = await startServer(testConfig(), { stdout: { write: () => true } as never });
  try {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { scheduler: { status: string; owner?: string } };
    assert.is(health.scheduler.status, 'running');
    assert.match(String(health.scheduler.owner), /:\d+:/);
  } finally {
    await server.close();
  }
  assert.is(await server.done, 0);
});

Embedded('serve :: WFCTL_SCHEDULER=off leaves the scheduler to `wfctl worker`', async () => {
  const server = await startServer(testConfig({}, { WFCTL_SCHEDULER: 'off' }), { stdout: { write: () => true } as never });
  try {
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { scheduler: { status: string; owner?: string } };
    assert.is(health.scheduler.status, 'disabled');
  } finally {
    await server.close();
  }
});

Embedded.run();
