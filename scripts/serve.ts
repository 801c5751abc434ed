// `npm start` and `npm run dev`: decide where to listen (loopback unless
// ASSAY_HOST or HOSTNAME says otherwise, and never beyond loopback without
// ASSAY_AUTH_SECRET), prepare the database, then run `next start` or
// `next dev` on that host. Usage: node --import tsx scripts/serve.ts start|dev [next options…]
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { decideListenHost } from "../lib/server/listenHost";
import { checkOidcAtStart } from "../lib/server/oidcStartCheck";

const ROOT = path.resolve(import.meta.dirname, "..");
const [mode, ...nextArgs] = process.argv.slice(2);
if (mode !== "start" && mode !== "dev") {
  console.error("usage: node --import tsx scripts/serve.ts start|dev [next options…]");
  process.exit(2);
}

const decision = decideListenHost(process.env);
if (!decision.ok) {
  console.error(`[assay] ${decision.message}`);
  process.exit(1);
}
const oidc = checkOidcAtStart(process.env);
if (!oidc.ok) {
  console.error(`[assay] ${oidc.message}`);
  process.exit(1);
}

const prepared = spawnSync(process.execPath, ["--import", "tsx", path.join("scripts", "prepare-db.ts")], {
  cwd: ROOT,
  stdio: "inherit",
});
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

console.log(
  `[assay] listening on ${decision.host}${decision.loopback ? " (this machine only; set ASSAY_HOST to expose it)" : ""}`,
);
const next = spawn(path.join(ROOT, "node_modules", ".bin", "next"), [mode, "-H", decision.host, ...nextArgs], {
  cwd: ROOT,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => next.kill(signal));
next.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
