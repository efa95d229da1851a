import { randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  DEFAULT_PLAN,
  PLAN_ID_PATTERN,
  type RegisterRequest,
  type UsernameCheckResponse,
  type ValidateEmailResponse,
} from '@fieldline/contracts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { Session, SessionService } from '../sessions/session-service.ts';
import {
  nameProblem,
  passwordProblem,
  usernameCandidates,
  usernameKey,
  usernameProblem,
} from './account-rules.ts';
import { AUTH_LIMITS, type AuthLimits, waitPhrase } from './auth-limits.ts';
import { checkEmail, normalizeEmail } from './email-rules.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { Limit, RateLimiter } from './rate-limiter.ts';
import { type CurrentUser, toCurrentUser, type UserRow, UserStore } from './user-store.ts';

/**
 * Moves what an anonymous session owns (jobs, uploads…) to the user who signs in from it. Each module
 * that stores per-session objects adds one; they run inside the login/registration transaction.
 */
export type OwnershipTransfer = (db: Db, fromSessionHash: string, toUserId: string) => Promise<unknown>;

/** Runs inside the registration transaction for a new user (e.g. compute's welcome token grant). */
export type RegistrationHook = (trx: Db, userId: string) => Promise<unknown>;

/** Who is asking: the client IP (as trusted by the proxy setting) and their current session. */
export interface Caller {
  ip: string;
  session: Session | null;
}

export interface SignedIn {
  user: CurrentUser;
  /** The new session id for the cookie (the old one is gone). */
  rawSessionId: string;
}

const SUGGESTION_COUNT = 3;

/** Register, log in, log out, and the email/username checks (spec 000 §5, §7). */
export class AccountService {
  readonly users: UserStore;
  /** Hooks other modules add; they commit with the new user row or not at all. */
  readonly onRegister: RegistrationHook[] = [];

  constructor(
    private readonly db: Db,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly transfers: OwnershipTransfer[],
    private readonly limits: AuthLimits = AUTH_LIMITS,
  ) {
    this.users = new UserStore(db);
    void hasher.warmUp();
  }

  /** POST /api/validate-email: the same answer for an address with an account and one without. */
  async validateEmail(caller: Caller, rawEmail: string): Promise<ValidateEmailResponse> {
    const email = normalizeEmail(rawEmail);
    await this.throttle(
      [
        [`email-check:ip:${caller.ip}`, this.limits.emailCheckPerIp],
        [`email-check:account:${email}`, this.limits.emailCheckPerAccount],
      ],
      'Too many email checks',
      { is_valid: false },
    );
    const verdict = checkEmail(email);
    return { is_valid: verdict.isValid, message: verdict.message };
  }

  /** POST /api/auth/register with validate_only: availability necessarily tells that a name is taken. */
  async checkUsername(caller: Caller, username: string): Promise<UsernameCheckResponse> {
    await this.throttle(
      [
        [`username-check:ip:${caller.ip}`, this.limits.usernameCheckPerIp],
        [`username-check:account:${usernameKey(username)}`, this.limits.usernameCheckPerAccount],
      ],
      'Too many username checks',
      { isValid: false, suggestions: [] },
    );
    const problem = usernameProblem(username);
    if (problem) return { isValid: false, message: problem, suggestions: await this.suggestions(username) };
    if (await this.users.usernameTaken(username)) {
      return {
        isValid: false,
        message: AUTH_MESSAGES.usernameTaken,
        suggestions: await this.suggestions(username),
      };
    }
    return { isValid: true, message: AUTH_MESSAGES.usernameAvailable, suggestions: [] };
  }

  /**
   * Creates the account and signs the caller in, in one transaction: the user row, the session
   * rotation and the hand-over of the guest session's jobs commit together or not at all.
   * Billing adds the welcome token grant inside this transaction too.
   */
  async registerUser(caller: Caller, input: RegisterRequest): Promise<SignedIn> {
    const email = normalizeEmail(input.email);
    const name = input.name.trim();
    const username = input.username.trim();
    await this.throttle(
      [
        [`register:ip:${caller.ip}`, this.limits.registerPerIp],
        [`register:account:${email}`, this.limits.registerPerAccount],
      ],
      'Too many registration attempts',
      { success: false },
    );
    const plan = input.plan?.trim() || DEFAULT_PLAN;
    const refuse = (message: string, extra: Record<string, unknown> = {}) =>
      new HttpError(400, 'invalid_registration', message, { success: false, suggestions: [], ...extra });

    const nameIssue = nameProblem(name);
    if (nameIssue) throw refuse(nameIssue);
    const emailVerdict = checkEmail(email);
    if (!emailVerdict.isValid) throw refuse(emailVerdict.message);
    const usernameIssue = usernameProblem(username);
    if (usernameIssue) throw refuse(usernameIssue, { suggestions: await this.suggestions(username) });
    const passwordIssue = passwordProblem(input.password);
    if (passwordIssue) throw refuse(passwordIssue);
    if (input.acceptedTerms !== true) throw refuse(AUTH_MESSAGES.termsRequired);
    if (!PLAN_ID_PATTERN.test(plan)) throw refuse(AUTH_MESSAGES.planUnknown);
    if (await this.users.usernameTaken(username)) throw await this.usernameTakenError(username);

    // Hash before looking at the email, so a taken email costs the same time as a free one.
    const passwordHash = await this.hasher.hash(input.password);
    const t = new Date().toISOString();
    const row: UserRow = {
      id: randomUUID(),
      name,
      email,
      username,
      username_key: usernameKey(username),
      password_hash: passwordHash,
      role: 'user',
      plan: DEFAULT_PLAN,
      signup_plan: plan,
      status: 'active',
      created_at: t,
      updated_at: t,
      last_login_at: t,
    };
    try {
      const rawSessionId = await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(row).execute();
        for (const hook of this.onRegister) await hook(trx, row.id);
        return this.signInWithin(trx, caller.session, row.id);
      });
      return { user: toCurrentUser(row), rawSessionId };
    } catch (err) {
      // Lost a race on a unique column, or the email has an account: say which only for usernames.
      if (await this.users.findByEmail(email)) {
        throw new HttpError(
          400,
          'registration_failed',
          `${AUTH_MESSAGES.registrationFailed}. If you already have an account, please log in.`,
          {
            success: false,
            suggestions: [],
          },
        );
      }
      if (await this.users.usernameTaken(username)) throw await this.usernameTakenError(username);
      throw err;
    }
  }

  /** POST /api/auth/login: the same work and the same answer whether or not the account exists. */
  async login(caller: Caller, rawEmail: string, password: string): Promise<SignedIn> {
    const email = normalizeEmail(rawEmail);
    if (email.length === 0 || password.length === 0) {
      throw new HttpError(400, 'invalid_request', AUTH_MESSAGES.loginMissing, { success: false });
    }
    const accountKey = `login:account:${email}`;
    await this.throttle(
      [
        [`login:ip:${caller.ip}`, this.limits.loginPerIp],
        [accountKey, this.limits.loginPerAccount],
      ],
      'Too many login attempts',
      { success: false },
    );
    const invalid = () =>
      new HttpError(401, 'invalid_credentials', AUTH_MESSAGES.loginInvalid, { success: false });
    if (password.length > 1024) throw invalid();
    const row = await this.users.findByEmail(email);
    const ok = row
      ? await this.hasher.verify(row.password_hash, password)
      : await this.hasher.verifyDummy(password);
    if (!row || !ok) throw invalid();
    if (row.status !== 'active') {
      throw new HttpError(403, 'account_disabled', AUTH_MESSAGES.accountDisabled, { success: false });
    }
    await this.limiter.reset(accountKey);
    if (this.hasher.needsRehash(row.password_hash)) {
      await this.users.setPasswordHash(row.id, await this.hasher.hash(password));
    }
    const rawSessionId = await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ last_login_at: new Date().toISOString() })
        .where('id', '=', row.id)
        .execute();
      return this.signInWithin(trx, caller.session, row.id);
    });
    return { user: toCurrentUser(row), rawSessionId };
  }

  /** POST /api/auth/logout: the session row is deleted, so the cookie is dead everywhere. */
  async logout(session: Session | null): Promise<void> {
    if (session) await this.sessions.destroy(session.idHash);
  }

  /** Makes a user an admin (or back); their sessions end, so the new role starts with a new session id. */
  async setRole(rawEmail: string, role: 'user' | 'admin'): Promise<CurrentUser | null> {
    const row = await this.users.setRole(normalizeEmail(rawEmail), role);
    if (!row) return null;
    await this.sessions.destroyAllForUser(row.id);
    return toCurrentUser(row);
  }

  /** Rotates the session and hands the guest session's objects to the user; returns the new cookie value. */
  private async signInWithin(trx: Db, previous: Session | null, userId: string): Promise<string> {
    if (previous && previous.userId === null) {
      for (const transfer of this.transfers) await transfer(trx, previous.idHash, userId);
    }
    const { rawId } = await this.sessions.rotate(previous, userId, trx);
    return rawId;
  }

  private async suggestions(username: string): Promise<string[]> {
    const free = await this.users.freeUsernames(usernameCandidates(username));
    return free.slice(0, SUGGESTION_COUNT);
  }

  private async usernameTakenError(username: string): Promise<HttpError> {
    return new HttpError(409, 'username_taken', AUTH_MESSAGES.usernameTaken, {
      success: false,
      suggestions: await this.suggestions(username),
    });
  }

  /** Counts the call against every key; a caller over any limit gets 429 with a clear message. */
  private async throttle(
    keys: Array<[string, Limit]>,
    what: string,
    extra: Record<string, unknown>,
  ): Promise<void> {
    const decision = await this.limiter.hitAll(keys.map(([key, limit]) => ({ key, limit })));
    if (decision.allowed) return;
    throw new HttpError(
      429,
      'rate_limited',
      `${what}. Please try again ${waitPhrase(decision.retryAfterSeconds)}.`,
      extra,
      { 'retry-after': String(decision.retryAfterSeconds) },
    );
  }
}
