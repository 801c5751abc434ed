import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where the served CI client comes from: its entry point in this checkout. */
const ENTRY = "scripts/assayClient.ts";

let built: Promise<string> | undefined;

/**
 * The CI client (scripts/assayClient.ts) as one self-contained ES module: every package bundled in (zod and
 * nothing else is reached: the client speaks HTTP only), minified, for Node 20 and later. Built once per server
 * process from the sources it is running (esbuild, a dependency, about half a second), so a client downloaded
 * from a server is always that server's version. A failed build is not kept: the next request tries again.
 */
export function clientBundle(root = process.cwd()): Promise<string> {
  built ??= buildClient(root).catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

async function buildClient(root: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-client-"));
  const outfile = path.join(dir, "assay.mjs");
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        path.join(root, "node_modules", ".bin", "esbuild"),
        [
          ENTRY,
          "--bundle",
          "--platform=node",
          "--format=esm",
          "--target=node20",
          "--minify",
          "--legal-comments=none",
          `--banner:js=// Assay CI client: node assay.mjs --server URL … (see --help). Built by its server.`,
          `--outfile=${outfile}`,
          "--log-level=error",
        ],
        { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.once("error", reject);
      child.once("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`building the CI client failed (${code}): ${stderr.trim()}`)),
      );
    });
    return fs.readFileSync(outfile, "utf8");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
