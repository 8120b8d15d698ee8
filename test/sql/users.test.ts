import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WfError } from '../../core/errors.js';
import { createUser, deleteUser, findUserForLogin, verifyPassword } from '../../sql/users.js';
import { testDb } from '../helpers.js';

const Users = suite('sql/users');

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return (e as WfError).code;
  }
  return undefined;
};

Users('deleteUser :: refuses the last admin even when asked by someone else', async () => {
  const { db } = testDb();
  const admin = await createUser(db, { username: 'root', password: 'root password', role: 'admin' });
  const op = await createUser(db, { username: 'op', password: 'op password', role: 'operator' });
  assert.is(code(() => deleteUser(db, admin.id, op.id)), 'LAST_ADMIN');
  assert.is(code(() => deleteUser(db, admin.id, admin.id)), 'SELF_DELETE');
  assert.is(code(() => deleteUser(db, 'missing', admin.id)), 'USER_NOT_FOUND');
  deleteUser(db, op.id, admin.id);
  assert.is(db.prepare('SELECT count(*) FROM users').pluck().get(), 1);
});

Users('createUser :: onlyIfNone refuses once a user exists; the hash is bcrypt cost 10', async () => {
  const { db } = testDb();
  await createUser(db, { username: 'first', password: 'first password', role: 'admin' }, { onlyIfNone: true });
  await createUser(db, { username: 'second', password: 'second password', role: 'admin' }, { onlyIfNone: true }).then(
    () => assert.unreachable('second bootstrap succeeded'),
    (e: WfError) => assert.is(e.code, 'BOOTSTRAP_DONE'),
  );
  const row = findUserForLogin(db, 'FIRST')!;
  assert.match(row.password_hash, /^\$2[aby]\$10\$/);
  assert.ok(await verifyPassword('first password', row.password_hash));
  assert.not.ok(await verifyPassword('wrong', row.password_hash));
  assert.not.ok(await verifyPassword('first password', undefined));
  assert.not.ok(await verifyPassword('x', 'not a hash'));
});

Users.run();
