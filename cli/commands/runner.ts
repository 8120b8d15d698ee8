import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { WfCommand } from '../base.js';

/** Default port of the host runner (beside `wfctl serve` on 8080). */
export const RUNNER_PORT = 8081;

export class RunnerCommand extends WfCommand {
  static override paths = [['runner']];
  static override usage = Command.Usage({
    description: 'Serve the host runner: run agent CLIs on this host for a wfctl server that lives in a container',
    details: `
      Serves POST /api/runtimes/direct-cli/run and /api/runtimes/container-sandbox/run, nothing else. Requests
      must carry Authorization: Bearer <secret>; the secret is $WFCTL_HOME/secrets/runner, created on first start.
      Give the server the same secret file and WFCTL_RUNNER_URL=http://<this host>:<port>. Workspaces must be
      approved here (\`wfctl workspace approve\`, WFCTL_WORKSPACE_ROOTS) or be run working copies of this home.
    `,
    examples: [
      ['Serve on 127.0.0.1:8081', '$0 runner'],
      ['Serve for containers on the docker bridge', '$0 runner --host 172.17.0.1 --port 9090'],
    ],
  });

  host = Option.String('--host', { description: 'Address to listen on (default 127.0.0.1)' });
  port = Option.String('--port', { description: `Port to listen on (default ${RUNNER_PORT})`, validator: t.isNumber() });

  async run(): Promise<number> {
    const { loadConfig } = await import('../../core/config.js');
    const { openDatabase } = await import('../../sql/db.js');
    const { buildRunnerApp, runnerSecret } = await import('../../server/routes/runtimes.js');
    const { trackConnections } = await import('../../server/connections.js');
    // The runner runs agents itself; forwarding to another runner would loop.
    const config = { ...loadConfig(process.env), runnerUrl: '' };
    const db = openDatabase(config);
    const app = await buildRunnerApp(db, config, runnerSecret(config));
    const connections = trackConnections(app.server);
    const host = this.host ?? '127.0.0.1';
    await app.listen({ host, port: (this.port as number | undefined) ?? RUNNER_PORT });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : this.port;
    this.context.stdout.write(`wfctl runner serving http://${host.includes(':') ? `[${host}]` : host}:${port} (secret in ${config.home}/secrets/runner)\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    // In-flight agent requests get the shutdown grace, then their connections are cut (their agents are
    // cancelled by the disconnect), so a stuck client cannot hold the runner open.
    const closing = app.close();
    // Spare client connections without a request are closed now; finished requests' connections as they end.
    connections.closeIdle();
    const graceTimer = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs);
    await closing;
    clearTimeout(graceTimer);
    db.close();
    return 0;
  }
}
