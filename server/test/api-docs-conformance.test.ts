import { AUTH_MESSAGES, BILLING_MESSAGES, TOKEN_PURCHASE_OPTIONS } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { newUserInput, registerTestUser, type TestUser } from './support/users.ts';

// What /api/docs promises must be what the server takes: schemathesis (qa28) found requests that fit
// the documented schemas and were refused, and undeclared methods answered "no route".
type Schema = {
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  required?: string[];
  [key: string]: unknown;
};
type Doc = {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
};

let t: TestApp;
let doc: Doc;
let user: TestUser;
const bodySchema = (path: string, type = 'application/json') =>
  doc.paths[path]?.post?.requestBody?.content[type]?.schema as Schema;

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
  user = await registerTestUser(t.app);
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, payload: unknown, cookie = user.cookie) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie } });

describe('documented request bodies say what the server refuses', () => {
  it('login: an empty email or password is outside the schema and keeps the spec text', async () => {
    const login = bodySchema('/api/auth/login');
    expect(login.properties?.email).toMatchObject({ minLength: 1, pattern: '\\S' });
    expect(login.properties?.password).toMatchObject({ minLength: 1 });
    const res = await post('/api/auth/login', { email: '', password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AUTH_MESSAGES.loginMissing);
  });

  it('register: the account rules are in the schema; the service still answers their texts', async () => {
    const register = bodySchema('/api/auth/register').anyOf?.find((s) => s.required?.includes('password'));
    const p = register?.properties ?? {};
    expect(p.name?.pattern).toBeTypeOf('string');
    expect(p.email).toMatchObject({ format: 'email' });
    expect(p.password).toMatchObject({ minLength: 8, maxLength: 1024 });
    expect(p.acceptedTerms).toMatchObject({ const: true });
    const name = new RegExp(p.name?.pattern as string);
    const username = new RegExp(p.username?.pattern as string);
    expect([name.test(''), name.test('   '), name.test('Ada'), name.test('x'.repeat(101))]).toEqual([
      false,
      false,
      true,
      false,
    ]);
    expect([username.test('ab'), username.test('a b c'), username.test(' ada_1 ')]).toEqual([
      false,
      false,
      true,
    ]);
    const blankName = await post('/api/auth/register', newUserInput({ name: ' ' }), '');
    expect(blankName.statusCode).toBe(400);
    expect(blankName.json().message).toBe(AUTH_MESSAGES.nameRequired);
  });

  it('purchase-tokens: the quantity is one of the packs', async () => {
    const quantity = bodySchema('/api/purchase-tokens').properties?.quantity;
    expect(quantity?.enum).toEqual([...TOKEN_PURCHASE_OPTIONS]);
    const res = await post('/api/purchase-tokens', { quantity: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(BILLING_MESSAGES.tokenQuantityInvalid);
  });

  it('create-checkout-session: the price id is one the monthly plans sell, and each is taken', async () => {
    const plans = (await t.app.inject({ method: 'GET', url: '/api/plans' })).json() as Record<
      string,
      { billing_cycle: string; stripe_price_id: string | null }
    >;
    const sold = Object.values(plans)
      .filter((p) => p.billing_cycle === 'monthly' && p.stripe_price_id)
      .map((p) => p.stripe_price_id);
    expect(sold.length).toBeGreaterThan(0);
    const priceId = bodySchema('/api/create-checkout-session').properties?.priceId;
    expect(priceId?.enum).toEqual(sold);
    const buyer = await registerTestUser(t.app);
    const res = await post('/api/create-checkout-session', { priceId: sold[0] }, buyer.cookie);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('test-ecs-task: one of task_arn or task_id is required, and a blank one does not hide the other', async () => {
    const body = bodySchema('/api/admin/test-ecs-task');
    expect(body.anyOf?.map((s) => s.required)).toEqual([['task_arn'], ['task_id']]);
    const none = await post('/api/admin/test-ecs-task', { task_arn: ' ' });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Please enter a task ARN or task ID');
    // Before: `task_arn ?? task_id` looked up "" and refused a request that names a task.
    const byId = await post('/api/admin/test-ecs-task', {
      task_arn: '',
      task_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(byId.statusCode).toBe(404);
    expect(byId.json().message).toBe('Task not found');
  });

  it('convert-step: the multipart form is documented', async () => {
    const form = bodySchema('/api/convert-step', 'multipart/form-data');
    expect(form.required).toEqual(['file']);
    expect(form.properties?.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.properties?.units?.enum).toContain('mm');
  });
});

describe('methods', () => {
  it('answers 405 with Allow for a method a documented path does not take', async () => {
    const cases: [string, string, string][] = [
      ['TRACE', '/api/user/sync-usage', 'POST'],
      ['GET', '/api/fea/cancel/00000000-0000-4000-8000-000000000000', 'POST'],
      ['DELETE', '/api/fea/status/00000000-0000-4000-8000-000000000000?x=1', 'GET, HEAD'],
      // A concrete path wins over a templated one (schemathesis: `{studyId}`'s GET was advertised here).
      ['OPTIONS', '/api/fea/studies/estimate', 'POST'],
      // … also when Fastify routes it by the templated path (GET `{studyId}` answered 404 "Study not found").
      ['GET', '/api/fea/studies/estimate', 'POST'],
      ['PUT', '/api/fea/studies/00000000-0000-4000-8000-000000000000', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: { cookie: user.cookie } });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.json().error).toBe('method_not_allowed');
    }
    // QUERY (RFC 10008) without a body: Fastify refused it with 400 "must provide a Content-Type"
    // before routing (schemathesis); no route here takes QUERY, so it is a 405 like any other method.
    const query = await t.app.inject({ method: 'QUERY' as 'GET', url: '/api/plans' });
    expect(query.statusCode).toBe(405);
    expect(query.headers.allow).toBe('GET, HEAD');
    const queryWithBody = await t.app.inject({
      method: 'QUERY' as 'GET',
      url: '/api/fea/submit',
      headers: { cookie: user.cookie, 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(queryWithBody.statusCode).toBe(405);
    expect(queryWithBody.headers.allow).toBe('POST');
    const unknown = await t.app.inject({ method: 'POST', url: '/api/fea/nothing-here' });
    expect(unknown.statusCode).toBe(404);
  });
});
