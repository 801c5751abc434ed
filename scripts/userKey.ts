// `npm run user:key -- --email you@example.com --role runner --name "CI on main"`: creates an API key for an
// existing account, for a CI job or script to send as `Authorization: Bearer …` to /api/v1. The key is
// printed once, alone on standard output (so `ASSAY_TOKEN=$(npm run -s user:key -- …)` captures it); only
// its hash is stored. Everything else goes to standard error.
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { ApiKeyRefusedError, createApiKey } from "../lib/auth/apiKeys";
import { decideAuthMode } from "../lib/auth/authMode";
import { ACCOUNTS_ONLY_SECRET, createAuth } from "../lib/auth/createAuth";
import { parseStoredRole, roleSchema } from "../lib/auth/roles";
import { findUserByEmail } from "../lib/db/accounts/userQueries";
import { closeDb, createDb } from "../lib/db/client";
import { resolveDatabaseUrl } from "../lib/db/databaseUrl";
import { applyPendingMigrations } from "../lib/db/migrations/applyMigrations";

const USAGE = `Usage:
  npm run user:key -- --email EMAIL --role viewer|runner|admin [--name NAME] [--expires-days DAYS]

Creates an API key for the account with that email in DATABASE_URL's database.
The key acts as that account with the given role, never above the account's own;
--expires-days makes it stop working after that many days (1 to 365), otherwise
it works until revoked on the API keys page. The key is printed once, alone on
standard output; only its hash is stored.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      "expires-days": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.email) throw new UsageError("Give the account's email with --email.");
  const role = roleSchema.safeParse(values.role);
  if (!role.success) throw new UsageError("Give the key's role with --role viewer, --role runner or --role admin.");
  const expiresInDays = values["expires-days"] === undefined ? undefined : Number(values["expires-days"]);
  const mode = decideAuthMode(process.env);
  if (mode.kind === "misconfigured" && process.env.ASSAY_AUTH_SECRET) throw new UsageError(mode.message);

  const url = resolveDatabaseUrl();
  await applyPendingMigrations(url);
  const db = createDb(url);
  try {
    const user = await findUserByEmail(db, values.email);
    if (!user) throw new UsageError(`No account has the email ${values.email.toLowerCase()}.`);
    // Hashing and storing a key needs no session, so the secret only matters to the server that verifies it.
    const auth = createAuth({
      db,
      secret: mode.kind === "on" ? mode.secret : ACCOUNTS_ONLY_SECRET,
      baseURL: process.env.ASSAY_BASE_URL?.trim() || "http://127.0.0.1:3000",
    });
    const created = await createApiKey(
      auth,
      { id: user.id, role: parseStoredRole(user.role) },
      { name: values.name ?? "command line", role: role.data, expiresInDays },
    );
    console.error(
      `Created a ${created.role} key for ${user.email}${created.expiresAt ? `, valid until ${created.expiresAt.toISOString()}` : ""}. It is shown once; keep it in your CI's secrets as ASSAY_TOKEN.`,
    );
    if (mode.kind !== "on")
      console.error("Sign-in is off on this server, so it takes no keys until ASSAY_AUTH_SECRET is set.");
    console.log(created.key);
  } finally {
    await closeDb(db);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
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
  if (error instanceof ApiKeyRefusedError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(`Could not create the key: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(3);
});
