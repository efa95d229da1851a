/** What other modules use from accounts: the guards, the signed-in user type, the CSRF path lists. */
export type { OwnershipTransfer } from './account-service.ts';
export { DEFAULT_CSRF_EXEMPT_PATHS, DEFAULT_MULTIPART_PATHS } from './csrf.ts';
export { currentUser, requireAdmin, requireUser } from './guards.ts';
export type { CurrentUser } from './user-store.ts';
