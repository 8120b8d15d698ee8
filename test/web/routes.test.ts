import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROUTE_TABLE, SETTINGS_SECTIONS, isPublicPath, matchRoute } from '../../web-components/src/lib/routes.js';

const Routes = suite('web/routes');

Routes('routes :: every design §11 path maps to its view with its parameters', () => {
  assert.equal(matchRoute('/login').view, 'login');
  assert.equal(matchRoute('/').view, 'workflows');
  assert.equal(matchRoute('/workflows/new').view, 'builder');
  assert.equal(matchRoute('/workflows/new').params, {});
  assert.equal(matchRoute('/workflows/abc-123/edit'), { route: ROUTE_TABLE.find((r) => r.path === '/workflows/:id/edit'), view: 'builder', params: { id: 'abc-123' } });
  assert.equal(matchRoute('/workflow-runs/5f0c').params, { id: '5f0c' });
  assert.equal(matchRoute('/workflow-runs/5f0c').view, 'run');
  for (const s of SETTINGS_SECTIONS) assert.equal(matchRoute(`/settings/${s}`).params, { section: s });
});

Routes('routes :: /runs and /approvals (removed by the spec) and unknown paths fall to not-found', () => {
  for (const p of ['/runs', '/approvals', '/runs/', '/approvals/1', '/settings/unknown', '/workflows', '/workflow-runs', '/nope']) {
    assert.equal(matchRoute(p).view, 'not-found', p);
  }
  assert.not.ok(ROUTE_TABLE.some((r) => /^\/(runs|approvals)\b/.test(r.path)));
});

Routes('routes :: a trailing slash is ignored and escaped ids are decoded', () => {
  assert.equal(matchRoute('/workflows/new/').view, 'builder');
  assert.equal(matchRoute('/workflow-runs/a%20b').params, { id: 'a b' });
  assert.equal(matchRoute('/workflow-runs/%E0%A4%A').params, { id: '%E0%A4%A' });
});

Routes('routes :: only /login is reachable signed out', () => {
  assert.ok(isPublicPath('/login'));
  for (const p of ['/', '/workflows/new', '/workflow-runs/x', '/settings/users', '/runs']) assert.not.ok(isPublicPath(p), p);
});

Routes.run();
