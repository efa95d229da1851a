import { describe, expect, it } from 'vitest';
import { router } from '../src/routes.tsx';

describe('route table', () => {
  it('has every route of spec 000 §2', () => {
    const paths = router.routes.map((r) => r.path);
    for (const p of [
      '/',
      '/environment',
      '/userdatabase/Login',
      '/userdatabase/Register',
      '/userdatabase/ForgotPassword',
      '/dashboard',
      '/billing',
      '/docs',
      '/blog',
      '/support',
      '/privacy-policy',
      '/terms-of-service',
    ]) {
      expect(paths).toContain(p);
    }
  });
});
