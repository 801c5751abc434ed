// The install runs on the Node the project declares (package.json engines,
// Node 20.19+). A locked package whose own `engines.node` leaves that out
// makes `npm install`/`npm ci` print `EBADENGINE`; each such package is either
// pinned to a version for Node 20 or named in docs/development.md (Installing) with why the
// warning is harmless, and is reached only through code Assay never runs.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const ROOT = path.resolve(import.meta.dirname, "../..");
// npm's own range logic (semver is in the tree through better-sqlite3's prebuild-install).
const semver = createRequire(import.meta.url)("semver") as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const lockSchema = z.object({
  packages: z.record(
    z.string(),
    z.object({
      version: z.string().optional(),
      optional: z.boolean().optional(),
      engines: z.union([z.record(z.string(), z.string()), z.array(z.string())]).optional(),
      dependencies: z.record(z.string(), z.string()).optional(),
    }),
  ),
});
const manifestSchema = z.object({ engines: z.object({ node: z.string() }) });

function read(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));
}

/** Locked packages (not platform-only optional ones, which npm skips here) that do not declare our oldest Node. */
function packagesExcluding(nodeVersion: string): string[] {
  const lock = lockSchema.parse(read("package-lock.json"));
  const names: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (location === "" || entry.optional || !entry.engines || Array.isArray(entry.engines)) continue;
    const range = entry.engines.node;
    if (range && !semver.satisfies(nodeVersion, range)) names.push(location.replace(/^.*node_modules\//, ""));
  }
  return names.sort();
}

describe("packages that declare a newer Node than the project's", () => {
  const oldest = semver.minVersion(manifestSchema.parse(read("package.json")).engines.node)?.version ?? "";

  it("are only @prisma/streams-local, which no released version lets run on Node 20", () => {
    expect(oldest).toBe("20.19.0");
    expect(packagesExcluding(oldest)).toEqual(["@prisma/streams-local"]);
  });

  it("come in only through the Prisma CLI's `prisma dev` server, which Assay never starts", () => {
    const lock = lockSchema.parse(read("package-lock.json"));
    const dependents = (name: string) =>
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.dependencies?.[name] !== undefined)
        .map(([location]) => location.replace(/^.*node_modules\//, "") || "(assay)");
    expect(dependents("@prisma/streams-local")).toEqual(["@prisma/dev"]);
    expect(dependents("@prisma/dev")).toEqual(["prisma"]);
    // The CLI loads @prisma/dev only inside `prisma dev` (a dynamic import); Assay's scripts run generate only.
    const cli = fs.readFileSync(path.join(ROOT, "node_modules/prisma/build/cli.js"), "utf8");
    expect(cli.match(/import\("@prisma\/dev"\)/g)?.length).toBe(1);
    const scripts = JSON.stringify(z.object({ scripts: z.record(z.string(), z.string()) }).parse(read("package.json")));
    expect(scripts).not.toMatch(/prisma dev/);
  });

  it("are named in docs/development.md with why the warning is harmless", () => {
    const readme = fs.readFileSync(path.join(ROOT, "docs", "development.md"), "utf8");
    for (const name of packagesExcluding(oldest)) {
      const paragraph = readme.split("\n\n").find((text) => text.includes("EBADENGINE") && text.includes(name));
      expect(paragraph, `a paragraph of docs/development.md on EBADENGINE naming ${name}`).toBeDefined();
      expect(paragraph).toMatch(/harmless/);
    }
  });
});
