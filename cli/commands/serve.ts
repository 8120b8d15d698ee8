import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { WfCommand } from '../base.js';

export class ServeCommand extends WfCommand {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    description: 'Serve the API and the web UI (and, by default, run the scheduler in the same process)',
    details: `
      Listens on 127.0.0.1:8080 unless told otherwise (WFCTL_HOST / WFCTL_PORT, or the flags).
      State lives in WFCTL_HOME (default ~/.wfctl); the database at WFCTL_DB or $WFCTL_HOME/data/app.db.
      Set WFCTL_SCHEDULER=off to serve the API only and run \`wfctl worker\` beside it.
    `,
    examples: [
      ['Serve on the default address', '$0 serve'],
      ['Serve on all interfaces, port 9000', '$0 serve --host 0.0.0.0 --port 9000'],
    ],
  });

  host = Option.String('--host', { description: 'Address to listen on (default WFCTL_HOST or 127.0.0.1)' });
  port = Option.String('--port', { description: 'Port to listen on (default WFCTL_PORT or 8080)', validator: t.isNumber() });

  async run(): Promise<number> {
    const { loadConfig } = await import('../../core/config.js');
    const { startServer } = await import('../../server/server.js');
    const config = loadConfig(process.env, { host: this.host, port: this.port as number | undefined });
    const server = await startServer(config, { stdout: this.context.stdout });
    return server.done;
  }
}
