// A cheaper password hash for the tests of accounts and sign-in rules: scrypt as Better Auth uses it, at a
// sixteenth of its cost (N = 1024 in place of 16384). Those tests hash and check hundreds of passwords (a paused
// sign-in alone takes eleven), about 0.2 s of CPU each at Better Auth's cost, and what they check is who may
// sign in, not how hard a hash is to break. A hash made elsewhere at the real cost (the user:create CLI the
// tests spawn) is checked by Better Auth's own function, so both kinds sign in.
import { randomBytes, scrypt } from "node:crypto";
import { verifyPassword } from "better-auth/crypto";
import type { PasswordHasher } from "@/lib/auth/createAuth";

const PREFIX = "test-scrypt-1024:";

function derive(password: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 64, { N: 1024, r: 16, p: 1 }, (error, key) =>
      error ? reject(error) : resolve(key.toString("hex")),
    ),
  );
}

export const testPasswordHasher: PasswordHasher = {
  hash: async (password) => {
    const salt = randomBytes(16).toString("hex");
    return `${PREFIX}${salt}:${await derive(password, salt)}`;
  },
  verify: async ({ hash, password }) => {
    if (!hash.startsWith(PREFIX)) return verifyPassword({ hash, password });
    const [salt, key] = hash.slice(PREFIX.length).split(":");
    return (await derive(password, salt)) === key;
  },
};
