// `npm run user:create -- --admin you@example.com`: creates an account from the
// command line, which is how the first admin appears (sign-up is off until an
// admin turns it on). The password is read from the terminal without echo, or
// from standard input with --password-stdin; it is never printed or logged.
import { parseArgs } from "node:util";
import { ACCOUNTS_ONLY_SECRET, createAuth } from "../lib/auth/createAuth";
import { createUserAccount, UserExistsError } from "../lib/auth/createUserAccount";
import { decideAuthMode } from "../lib/auth/authMode";
import { ROLES, type Role } from "../lib/auth/roles";
import { closeDb, createDb } from "../lib/db/client";
import { resolveDatabaseUrl } from "../lib/db/databaseUrl";
import { applyPendingMigrations } from "../lib/db/migrations/applyMigrations";
import { ZodError } from "zod";
import { PasswordInputError, readPasswordFromStdin, readPasswordFromTerminal } from "./userCreatePassword";

const USAGE = `Usage:
  npm run user:create -- --admin EMAIL [--name NAME] [--password-stdin]
  npm run user:create -- --runner EMAIL ...
  npm run user:create -- --viewer EMAIL ...

Creates an email/password account with that role in DATABASE_URL's database.
The password is asked for on the terminal (not shown), or read from standard
input with --password-stdin (e.g. from a secrets manager). Refuses an email
that already has an account.`;

class UsageError extends Error {}

function parseCommand(argv: string[]): { email: string; role: Role; name?: string; passwordStdin: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      admin: { type: "string" },
      runner: { type: "string" },
      viewer: { type: "string" },
      name: { type: "string" },
      "password-stdin": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const chosen = ROLES.filter((role) => values[role] !== undefined);
  if (chosen.length !== 1) throw new UsageError("Give exactly one of --admin, --runner or --viewer, with the email.");
  const role = chosen[0] as Role;
  return { email: values[role] ?? "", role, name: values.name, passwordStdin: values["password-stdin"] ?? false };
}

async function main(argv: string[]): Promise<void> {
  const command = parseCommand(argv);
  const mode = decideAuthMode(process.env);
  if (mode.kind === "misconfigured" && process.env.ASSAY_AUTH_SECRET) throw new UsageError(mode.message);

  const password = command.passwordStdin ? await readPasswordFromStdin() : await readPasswordFromTerminal();
  const url = resolveDatabaseUrl();
  await applyPendingMigrations(url);
  const db = createDb(url);
  try {
    // Creating an account hashes the password and needs no session, so the
    // secret only matters to the server that signs people in later.
    const auth = createAuth({
      db,
      secret: mode.kind === "on" ? mode.secret : ACCOUNTS_ONLY_SECRET,
      baseURL: process.env.ASSAY_BASE_URL?.trim() || "http://127.0.0.1:3000",
    });
    const user = await createUserAccount(auth, db, {
      email: command.email,
      name: command.name ?? command.email.split("@")[0] ?? command.email,
      password,
      role: command.role,
    });
    console.log(`Created ${user.role} ${user.email}.`);
    if (mode.kind !== "on")
      console.log(
        "Sign-in is off on this server until ASSAY_AUTH_SECRET is set (see docs/security.md, Accounts and roles).",
      );
  } finally {
    await closeDb(db);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // parseArgs reports an unknown or malformed option as a TypeError with an ERR_PARSE_ARGS_* code.
  const badOption =
    error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");
  if (error instanceof UsageError || badOption) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof ZodError) {
    console.error(error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("\n"));
    process.exit(2);
  }
  if (error instanceof PasswordInputError) {
    console.error(error.message);
    process.exit(2);
  }
  if (error instanceof UserExistsError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(`Could not create the user: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(3);
});
