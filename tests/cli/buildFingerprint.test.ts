// `npm start` builds only when what `next build` reads changed since its last
// build, and says which it was: a restart (a crashed run resuming) no longer
// waits half a minute for an identical build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Scanner } from "@tailwindcss/oxide";
import { compile } from "@tailwindcss/node";
import { computeBuildFingerprint, decideBuild, writeBuildFingerprint } from "@/lib/server/buildFingerprint";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project folder with a few sources, a lockfile and no build yet. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-build-"));
  dirs.push(dir);
  const files: Record<string, string> = {
    "app/page.tsx": "export default function Page() { return null; }\n",
    "lib/engine/run.ts": "export const x = 1;\n",
    "lib/db/generated/sqlite/client.ts": "// generated\n",
    "package-lock.json": '{ "lockfileVersion": 3 }\n',
    "next.config.mjs": "export default {};\n",
    "scripts/eval.ts": "// not part of the build\n",
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** What `npm start` does when the decision says build: `next build` writes BUILD_ID, then the fingerprint is kept. */
function buildIn(dir: string, env: Record<string, string> = {}, buildId = "build-1"): void {
  const decision = decideBuild(dir, env);
  expect(decision.build).toBe(true);
  fs.mkdirSync(path.join(dir, ".next"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".next", "BUILD_ID"), buildId);
  if (decision.build) writeBuildFingerprint(dir, decision.fingerprint);
}

describe("whether npm start builds", () => {
  it("builds when .next has no build, then skips while nothing changed", () => {
    const dir = project();
    expect(decideBuild(dir, {})).toMatchObject({ build: true, message: "building: no earlier build in .next" });
    buildIn(dir);
    const again = decideBuild(dir, {});
    expect(again.build).toBe(false);
    expect(again.message).toMatch(/^build is up to date \(4 source files.*\); skipping next build$/);
  });

  it("rebuilds when a source file changes, is added or removed, and names it", () => {
    const dir = project();
    buildIn(dir);
    fs.writeFileSync(path.join(dir, "app/page.tsx"), "export default function Page() { return 1; }\n");
    expect(decideBuild(dir, {}).message).toBe("rebuilding: app/page.tsx changed");
    buildIn(dir, {}, "build-2");
    fs.writeFileSync(path.join(dir, "lib/engine/new.ts"), "export {};\n");
    fs.rmSync(path.join(dir, "lib/engine/run.ts"));
    expect(decideBuild(dir, {}).message).toBe("rebuilding: lib/engine/new.ts added, lib/engine/run.ts removed");
  });

  it("rebuilds when the lockfile changes (another Next.js or package version)", () => {
    const dir = project();
    buildIn(dir);
    fs.writeFileSync(path.join(dir, "package-lock.json"), '{ "lockfileVersion": 3, "packages": {} }\n');
    expect(decideBuild(dir, {}).message).toBe("rebuilding: package-lock.json changed");
  });

  it("rebuilds when ASSAY_ALLOWED_ORIGINS, which next.config.mjs reads at build time, changes", () => {
    const dir = project();
    buildIn(dir, { ASSAY_ALLOWED_ORIGINS: "proxy.example.com" });
    expect(decideBuild(dir, { ASSAY_ALLOWED_ORIGINS: "proxy.example.com" }).build).toBe(false);
    expect(decideBuild(dir, {}).message).toBe("rebuilding: ASSAY_ALLOWED_ORIGINS changed");
  });

  it("rebuilds when another build replaced the one npm start made (npm run build, the browser tests)", () => {
    const dir = project();
    buildIn(dir);
    fs.writeFileSync(path.join(dir, ".next", "BUILD_ID"), "made-by-someone-else");
    expect(decideBuild(dir, {}).message).toMatch(/^rebuilding: \.next holds another build/);
    fs.rmSync(path.join(dir, ".next", "assay-build-fingerprint.json"));
    expect(decideBuild(dir, {}).message).toMatch(/^rebuilding: the build in \.next was not made by npm start/);
  });

  it("ignores what the build does not read: the generated Prisma client, scripts, new time stamps", () => {
    const dir = project();
    buildIn(dir);
    fs.writeFileSync(path.join(dir, "lib/db/generated/sqlite/client.ts"), "// generated again\n");
    fs.writeFileSync(path.join(dir, "scripts/eval.ts"), "// edited\n");
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(dir, "app/page.tsx"), later, later); // a checkout or a save without a change
    expect(decideBuild(dir, {}).build).toBe(false);
  });

  it("rebuilds when prisma.config.ts, which npm run build's prisma generate reads, changes", () => {
    const dir = project();
    fs.writeFileSync(path.join(dir, "prisma.config.ts"), 'export default { schema: "prisma/schema.prisma" };\n');
    buildIn(dir);
    fs.writeFileSync(path.join(dir, "prisma.config.ts"), 'export default { schema: "prisma/other.prisma" };\n');
    expect(decideBuild(dir, {}).message).toBe("rebuilding: prisma.config.ts changed");
  });

  it("hashes every file Tailwind scans for class names while building app/globals.css", async () => {
    // Tailwind finds class names in the files it scans, chosen as @tailwindcss/postcss chooses them
    // during next build: from globals.css's source() and @source, else the whole project folder.
    const cssFile = path.join(ROOT, "app/globals.css");
    const compiler = await compile(fs.readFileSync(cssFile, "utf8"), {
      base: path.dirname(cssFile),
      onDependency: () => {},
    });
    const root =
      compiler.root === "none"
        ? []
        : compiler.root === null
          ? [{ base: ROOT, pattern: "**/*", negated: false }]
          : [{ ...compiler.root, negated: false }];
    const scanner = new Scanner({ sources: [...root, ...compiler.sources] });
    scanner.scan();
    const scanned = scanner.files.map((file) => path.relative(ROOT, file));
    const hashed = Object.keys(computeBuildFingerprint(ROOT, {}).files);
    expect(scanned.length).toBeGreaterThan(100);
    expect(scanned.filter((file) => !hashed.includes(file))).toEqual([]);
  });

  // What keeps `npm start`'s check quick is what it reads: the sources, never the installed packages, the
  // build, the generated clients or the stores (tens of thousands of files, and gigabytes).
  it("fingerprints this repository's sources and nothing it installs, builds or stores", () => {
    const files = Object.keys(computeBuildFingerprint(ROOT, process.env).files);
    expect(files).toContain("package-lock.json");
    expect(files).toContain("app/layout.tsx");
    expect(files).toContain("prisma.config.ts");
    const outside = /^(node_modules|\.next|\.git|data|test-results|bench-results|lib\/db\/generated)\//;
    expect(files.filter((name) => outside.test(name))).toEqual([]);
  });
});
