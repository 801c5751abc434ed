import type { Db } from "../client";
import { type Pagination, MAX_PAGE_SIZE } from "@/lib/contract/pagination";
import { readPage, type Page } from "../pagination";

/**
 * Reads and role changes on Better Auth's User table. Better Auth itself
 * creates users, sessions and password hashes (through its Prisma adapter);
 * these are the queries Assay's own pages, actions and CLI make.
 */
export type UserSummary = {
  id: string;
  name: string;
  email: string;
  role: string | null;
  banned: boolean;
  createdAt: Date;
  signInMethods: string[];
};

export async function listUsers(db: Db, pagination: Pagination): Promise<Page<UserSummary>> {
  if (pagination.pageSize > MAX_PAGE_SIZE) throw new Error(`page size ${pagination.pageSize} is over ${MAX_PAGE_SIZE}`);
  return readPage(
    pagination,
    () => db.user.count(),
    async (skip, take) => {
      const users = await db.user.findMany({
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        skip,
        take,
        select: {
          id: true,
          name: true,
          email: true,
          role: true,
          banned: true,
          createdAt: true,
          accounts: { select: { providerId: true } },
        },
      });
      return users.map(({ accounts, banned, ...user }) => ({
        ...user,
        banned: banned ?? false,
        signInMethods: [...new Set(accounts.map((account) => account.providerId))].sort(),
      }));
    },
  );
}

export async function findUserByEmail(db: Db, email: string) {
  return db.user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true, email: true, role: true } });
}

/** The providers a user signs in with: "credential" (email and password), "oidc" (single sign-on). */
export async function listSignInMethods(db: Db, userId: string): Promise<string[]> {
  const accounts = await db.account.findMany({
    where: { userId },
    select: { providerId: true },
    distinct: ["providerId"],
  });
  return accounts.map((account) => account.providerId).sort();
}

export async function findUserById(db: Db, id: string) {
  return db.user.findUnique({ where: { id }, select: { id: true, name: true, email: true, role: true } });
}

/**
 * Sets a user's role. Better Auth reads the role from this row on every
 * session lookup (no cookie cache is configured), so the change applies to the
 * user's next request. Demoting the last active admin fails inside the
 * update (lib/db/accounts/activeAdmins.ts).
 */
export async function setUserRole(db: Db, userId: string, role: string): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { role } });
}

/**
 * How the users who created datasets or runs, or gave labels, are shown (missing users are left out): the
 * name with the email, `Rita Runner <rita@example.com>`. A name is whatever its owner typed and can be
 * changed to anyone's (Better Auth's update-user); the email is unique and set by an admin or the identity
 * provider, so it is what tells two people of one name apart.
 */
export async function userIdentitiesById(db: Db, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === "string"))];
  if (wanted.length === 0) return new Map();
  const users = await db.user.findMany({
    where: { id: { in: wanted } },
    select: { id: true, name: true, email: true },
  });
  return new Map(
    users.map((user) => [user.id, user.name && user.name !== user.email ? `${user.name} <${user.email}>` : user.email]),
  );
}

/** The password hash stored for an email/password account: tests check it is a hash, not the password. */
export async function readCredentialHash(db: Db, userId: string): Promise<string | null> {
  const account = await db.account.findFirst({
    where: { userId, providerId: "credential" },
    select: { password: true },
  });
  return account?.password ?? null;
}
