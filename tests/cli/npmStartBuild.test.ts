// `npm start` (scripts/serve.ts start --build), run as a real process twice on
// a copy of the project: the first start builds, the second, with nothing
// changed, skips the build and says so; after a source edit it builds again
// and names the file. The build is a stand-in npm (npm_execpath) that writes
// .next/BUILD_ID as `next build` would, so no real 30-second build runs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endWithThisProcess } from "../support/processCleanup";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Linked, not copied: the fingerprint reads through the links, and serve.ts's imports resolve into the real tree. */
const LINKED = [
  "app",
  "components",
  "lib",
  "prisma",
  "public",
  "node_modules",
  "package.json",
  "package-lock.json",
  "next.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
  "tsconfig.json",
  "postcss.config.mjs",
  "prisma.config.ts",
];

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-npm-start-build-"));
  for (const name of LINKED) fs.symlinkSync(path.join(ROOT, name), path.join(dir, name));
  // Copied: node resolves a linked entry script to its real folder, which would make the real tree the root.
  fs.cpSync(path.join(ROOT, "scripts"), path.join(dir, "scripts"), { recursive: true });
  // An edit the test can make without touching the real sources: a public file of the copy's own.
  fs.rmSync(path.join(dir, "public"));
  fs.cpSync(path.join(ROOT, "public"), path.join(dir, "public"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "fake-npm.mjs"),
    [
      'import fs from "node:fs";',
      'fs.mkdirSync(".next", { recursive: true });',
      'fs.writeFileSync(".next/BUILD_ID", `fake-${Date.now()}`);',
      'fs.appendFileSync("builds.log", process.argv.slice(2).join(" ") + "\\n");',
    ].join("\n"),
  );
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * One `npm start`, on port 1: `next start` refuses that reserved port at once, so each start ends right after
 * the build decision and the database step (a stand-in build could not serve anyway).
 */
async function start(): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start", "--build", "-p", "1"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "production",
      DATABASE_URL: `file:${path.join(dir, "assay.db")}`,
      NEXT_TELEMETRY_DISABLED: "1",
      npm_execpath: path.join(dir, "fake-npm.mjs"),
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const untrack = endWithThisProcess(child, { group: true });
  let output = "";
  child.stdout.on("data", (data) => (output += data));
  child.stderr.on("data", (data) => (output += data));
  const killer = setTimeout(() => process.kill(-(child.pid ?? 0), "SIGKILL"), 60_000);
  await new Promise((resolve) => child.once("exit", resolve));
  clearTimeout(killer);
  untrack();
  return output;
}

function builds(): number {
  const log = path.join(dir, "builds.log");
  return fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n").length : 0;
}

describe("npm start on unchanged sources", () => {
  it("builds once, then skips the build and says so; a source edit builds again", { timeout: 180_000 }, async () => {
    const first = await start();
    expect(first).toContain("[assay] building: no earlier build in .next");
    expect(builds()).toBe(1);
    expect(fs.readFileSync(path.join(dir, "builds.log"), "utf8")).toBe("run build\n");

    const second = await start();
    expect(second).toMatch(/\[assay\] build is up to date \(\d+ source files.*\); skipping next build/);
    expect(builds()).toBe(1);
    // The start went on past the skipped build: the database was prepared.
    expect(second).toContain("[assay] database");

    fs.writeFileSync(path.join(dir, "public", "robots.txt"), "User-agent: *\nDisallow: /\n");
    const third = await start();
    expect(third).toContain("[assay] rebuilding: public/robots.txt added");
    expect(builds()).toBe(2);
  });
});
