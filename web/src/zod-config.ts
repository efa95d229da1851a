import { config } from 'zod/v4/core';

// The server's CSP forbids eval (script-src 'self'): zod's JIT would only probe `new Function`, be
// refused and log a CSP violation in the console. Parsing without it is fast enough for the browser.
config({ jitless: true });
