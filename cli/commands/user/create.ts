import { Command, Option, UsageError } from 'clipanion';
import { WfCommand } from '../../base.js';

export class UserCreateCommand extends WfCommand {
  static override paths = [['user', 'create']];
  static override usage = Command.Usage({
    category: 'Users',
    description: 'Create a user account for the web UI and the API',
    details: `
      The password is never an argument (it would land in shell history and process lists): on a terminal it is
      asked twice without echo; otherwise it is read from standard input (first line). Passwords need at least 8
      characters (at most 72 bytes). --admin makes an admin (user management); otherwise an operator.
    `,
    examples: [
      ['Create an operator, typing the password', '$0 user create alice'],
      ['Create an admin from a script', 'printf "%s\\n" "$PASSWORD" | $0 user create ops-admin --admin'],
    ],
  });

  username = Option.String({ required: true, name: 'name' });
  admin = Option.Boolean('--admin', false, { description: 'Make the user an admin' });

  async run(): Promise<number> {
    const { checkPassword, checkUsername, createUser } = await import('../../../sql/users.js');
    const { isWfError } = await import('../../../core/errors.js');
    const { askHidden, readStdin } = await import('../../prompt.js');
    const userError = (e: unknown) => (isWfError(e) && (e.code === 'VALIDATION_FAILED' || e.code === 'USERNAME_TAKEN') ? new UsageError(e.message) : e);
    try {
      checkUsername(this.username);
    } catch (e) {
      throw userError(e);
    }
    const stdin = process.stdin;
    let password: string;
    if (stdin.isTTY) {
      password = await askHidden(`Password for ${this.username}: `);
      const again = await askHidden('Repeat the password: ');
      if (again !== password) throw new UsageError('the two passwords differ; nothing was created');
    } else {
      password = (await readStdin(stdin)).split(/\r?\n/)[0] ?? '';
      if (!password) throw new UsageError('no password on standard input; pipe it in (first line) or run on a terminal to be asked');
    }
    try {
      checkPassword(password);
    } catch (e) {
      throw userError(e);
    }
    const { loadConfig } = await import('../../../core/config.js');
    const { openDatabase } = await import('../../../sql/db.js');
    const config = loadConfig(process.env);
    const db = openDatabase(config);
    try {
      const user = await createUser(db, { username: this.username, password, role: this.admin ? 'admin' : 'operator' });
      this.context.stdout.write(`created ${user.role} ${user.username} (${user.id})\n`);
      return 0;
    } catch (e) {
      throw userError(e);
    } finally {
      db.close();
    }
  }
}
