// One esbuild bundle of a TypeScript entry point for plain Node: what `npm run eval`, `worker`, `user:create`, `user:key` and the
// benchmarks run (scripts/run-compiled.mjs), and what the tests spawn as the CLI (tests/support/cliBundleGlobalSetup.ts),
// so both run the same file. Packages stay external: the bundle resolves them from the checkout's
// node_modules, so `outfile` must lie inside the checkout.
import { spawnSync } from "node:child_process";
import path from "node:path";

/** Bundles `entry` into `outfile`; returns esbuild's exit status (0 when it worked; it prints its own errors). */
export function bundleEntry(entry, outfile, { root = process.cwd() } = {}) {
  const esbuild = path.resolve(root, "node_modules", ".bin", "esbuild");
  const bundled = spawnSync(
    esbuild,
    [
      entry,
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--target=node20",
      "--packages=external",
      `--outfile=${outfile}`,
      "--log-level=warning",
    ],
    { cwd: root, stdio: "inherit" },
  );
  return bundled.status ?? 1;
}
