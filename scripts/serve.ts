// `npm start` and `npm run dev`: decide where to listen (loopback unless
// ASSAY_HOST or HOSTNAME says otherwise, and never beyond loopback without
// ASSAY_AUTH_SECRET), refusing before anything slow runs; then, for
// `npm start`, build the production app when its sources changed; prepare the database; and run
// `next start` or `next dev` on that host, with the host handed to the server
// as ASSAY_HOST too, so its sign-in decision is made on the address it listens on.
// Usage: node --import tsx scripts/serve.ts start|dev [--build] [next options…]
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import {
  debuggerArgumentIn,
  debuggerArgumentMessage,
  decideListenHost,
  hostArgumentIn,
  hostArgumentMessage,
} from "../lib/server/listenHost";
import { decideBuild, writeBuildFingerprint } from "../lib/server/buildFingerprint";
import { checkOidcAtStart } from "../lib/server/oidcStartCheck";
import { webServerEnv } from "../lib/runtime/webServerEnv";

const ROOT = path.resolve(import.meta.dirname, "..");
const [mode, ...args] = process.argv.slice(2);
if (mode !== "start" && mode !== "dev") {
  console.error("usage: node --import tsx scripts/serve.ts start|dev [--build] [next options…]");
  process.exit(2);
}
const build = args.includes("--build");
const nextArgs = args.filter((arg) => arg !== "--build");

const hostArgument = hostArgumentIn(nextArgs);
if (hostArgument !== null) {
  console.error(`[assay] ${hostArgumentMessage(hostArgument)}`);
  process.exit(1);
}
const debuggerArgument = debuggerArgumentIn(nextArgs);
if (debuggerArgument !== null) {
  console.error(`[assay] ${debuggerArgumentMessage(debuggerArgument)}`);
  process.exit(1);
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

if (build) {
  // Only when the sources, the lockfile or the build-time environment changed since the last build: a restart
  // (a crashed run resuming) should not wait half a minute for an identical build.
  const buildDecision = decideBuild(ROOT, process.env);
  console.log(`[assay] ${buildDecision.message}`);
  if (buildDecision.build) {
    // The npm that runs this script (npm sets npm_execpath), else the one on PATH.
    const npm = process.env.npm_execpath;
    runOrExit(npm ? process.execPath : "npm", [...(npm ? [npm] : []), "run", "build"]);
    writeBuildFingerprint(ROOT, buildDecision.fingerprint);
  }
}
runOrExit(process.execPath, ["--import", "tsx", path.join("scripts", "prepare-db.ts")]);

console.log(
  `[assay] listening on ${decision.host}${decision.loopback ? " (this machine only; set ASSAY_HOST to expose it)" : ""}`,
);
// The decided host goes last (Next takes the last -H) and into the server's environment, which
// lib/auth/authMode.ts reads: the server cannot listen on one address and decide sign-in on another.
const next = spawn(path.join(ROOT, "node_modules", ".bin", "next"), [mode, ...nextArgs, "-H", decision.host], {
  cwd: ROOT,
  stdio: "inherit",
  // ASSAY_ADDRESS_CHECKED: the address this script checked, without which a server without sign-in refuses all.
  env: {
    ...process.env,
    ASSAY_HOST: decision.host,
    HOSTNAME: decision.host,
    ASSAY_ADDRESS_CHECKED: decision.host,
    // Measured for the production server only; `next dev`'s compiling workers would inherit them untried.
    ...(mode === "start" ? webServerEnv(process.env) : {}),
  },
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => next.kill(signal));
next.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

function runOrExit(command: string, commandArgs: string[]): void {
  const done = spawnSync(command, commandArgs, { cwd: ROOT, stdio: "inherit" });
  if (done.error) {
    console.error(`[assay] could not run ${path.basename(command)}: ${done.error.message}`);
    process.exit(1);
  }
  if (done.status !== 0) process.exit(done.status ?? 1);
}
