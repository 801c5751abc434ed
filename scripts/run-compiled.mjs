// Runs a TypeScript entry point (the eval CLI, the worker, the account commands, the benchmarks) as one
// esbuild bundle on plain Node, in a fresh process. Bundling takes a fraction
// of a second; the process then carries no TypeScript loader and no bundler,
// about 60 MB less resident memory than running through tsx (measured on the
// engine benchmark). Usage: node scripts/run-compiled.mjs scripts/eval.ts [args…]
import { spawn } from "node:child_process";
import path from "node:path";
import { bundleEntry } from "./bundleEntry.mjs";
import { ENGINE_ENTRIES, ENGINE_NODE_FLAGS } from "./engineNodeFlags.mjs";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/run-compiled.mjs <entry.ts> [args…]");
  process.exit(2);
}
const outfile = path.resolve("node_modules", ".cache", "assay-compiled", `${path.basename(entry, ".ts")}.mjs`);
const status = bundleEntry(entry, outfile);
if (status !== 0) process.exit(status);

const nodeFlags = ENGINE_ENTRIES.includes(path.relative(process.cwd(), path.resolve(entry))) ? ENGINE_NODE_FLAGS : [];
const child = spawn(process.execPath, [...nodeFlags, outfile, ...args], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
