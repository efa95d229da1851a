// Shared by the web benches: wait for a started server, then register one account through the API.

/** Resolves once `origin` answers /api/docs, or throws after `timeoutMs`. */
export async function waitForServer(origin, timeoutMs) {
  for (let up = false, t0 = Date.now(); !up; ) {
    if (Date.now() - t0 > timeoutMs) throw new Error('server did not start');
    up = await fetch(`${origin}/api/docs`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 250));
  }
}

/** Registers a fresh bench account; returns its session cookie as "name=value". */
export async function registerBenchUser(origin, prefix) {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const registered = await fetch(`${origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      name: 'Bench User',
      email: `${prefix}.${tag}@analytical-engines.com`,
      username: `${prefix}_${tag}`.slice(0, 20),
      password: 'correct horse battery staple',
      acceptedTerms: true,
    }),
  });
  if (registered.status !== 201) throw new Error(`registration failed: ${registered.status}`);
  return (registered.headers.get('set-cookie') ?? '').split(';')[0];
}
