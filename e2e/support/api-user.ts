/**
 * Registers an account through the API and returns its signed-in cookie (`fl_session=…`). Analyses need
 * an account; the welcome grant pays for the small jobs the browser tests run.
 */
export async function registerApiUser(origin: string): Promise<string> {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const res = await fetch(`${origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      name: 'Test Engineer',
      email: `engineer.${tag}@analytical-engines.com`,
      username: `eng_${tag}`.slice(0, 20),
      password: 'correct horse battery staple',
      acceptedTerms: true,
    }),
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
