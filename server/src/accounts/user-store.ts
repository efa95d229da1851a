import type { AuthUser } from '@fieldline/contracts';
import type { Db } from '../db/database.ts';
import type { UserRole, UsersTable } from '../db/schema.ts';

export type UserRow = UsersTable;

/** The signed-in user as route handlers see it (request.user). Never carries the password hash. */
export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  username: string;
  role: UserRole;
  plan: string;
  signupPlan: string;
  status: UsersTable['status'];
  createdAt: string;
}

export function toCurrentUser(row: UserRow): CurrentUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    role: row.role,
    plan: row.plan,
    signupPlan: row.signup_plan,
    status: row.status,
    createdAt: row.created_at,
  };
}

/** The user as the API shows it (contracts AuthUser). */
export function toAuthUser(user: CurrentUser): AuthUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.username,
    plan: user.plan,
    status: user.status,
    role: user.role,
  };
}

/** Queries on the users table. */
export class UserStore {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserRow | null> {
    return (
      (await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()) ?? null
    );
  }

  async findById(id: string): Promise<UserRow | null> {
    return (await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async usernameTaken(username: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('username_key', '=', username.toLowerCase())
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Which of `candidates` are free, in the order given. */
  async freeUsernames(candidates: string[]): Promise<string[]> {
    if (candidates.length === 0) return [];
    const taken = new Set(
      (
        await this.db
          .selectFrom('users')
          .select('username_key')
          .where(
            'username_key',
            'in',
            candidates.map((c) => c.toLowerCase()),
          )
          .execute()
      ).map((r) => r.username_key),
    );
    return candidates.filter((c) => !taken.has(c.toLowerCase()));
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Sets a user's role; false when no user has that email. */
  async setRole(email: string, role: UserRole): Promise<UserRow | null> {
    const result = await this.db
      .updateTable('users')
      .set({ role, updated_at: new Date().toISOString() })
      .where('email', '=', email)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? this.findByEmail(email) : null;
  }
}
