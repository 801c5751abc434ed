import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { endWithThisProcess } from "./processCleanup";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type EvalResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * Runs the real CLI as a separate process: scripts/eval.ts bundled as `npm run eval` bundles it
 * (cliBundleGlobalSetup.ts), started with plain Node. The bundle itself rather than run-compiled.mjs: that
 * wrapper runs it in a child process of its own, so a SIGKILL would hit the wrapper and leave the real
 * runner alive.
 */
export function spawnEval(
  args: string[],
  env: Record<string, string>,
): {
  child: ChildProcess;
  done: Promise<EvalResult>;
} {
  const child = spawn(process.execPath, [inject("cliBundles").eval, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A test that fails or times out before `done` must not leave the CLI running.
  const untrack = endWithThisProcess(child, { group: false });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<EvalResult>((resolve) => {
    child.on("exit", (code, signal) => {
      untrack();
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}
