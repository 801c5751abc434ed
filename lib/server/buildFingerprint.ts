import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Whether `npm start` must run `next build`: only when what the build reads
 * changed since the last build it made. The fingerprint is a hash of each
 * input file's contents, not of sizes and modification times: the sources are
 * a few hundred files and a few MB (hashed in tens of milliseconds), and
 * contents do not change when git checks out a branch and back, a stash is
 * popped, or an editor saves an unchanged file, so none of those costs a
 * 30-second build, while an edit that keeps the size and the time stamp
 * (`cp -p`, an archive unpacked) still does.
 */

/**
 * What `npm run build` reads: sources, config (prisma.config.ts for `prisma
 * generate`), the lockfile (versions of Next and every package), .env files.
 * Tailwind scans only app, components and lib for class names (app/globals.css
 * says so), not the whole folder. Left out on purpose: next-env.d.ts, which
 * next build itself rewrites; eslint.config.mjs, as Next 16's build no longer
 * lints; tests/ and scripts/, which the build type-checks (tsconfig.json's
 * include) but compiles none of: an edit there cannot change what it serves.
 */
export const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "prisma",
  "public",
  "next.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
  "tsconfig.json",
  "postcss.config.mjs",
  "prisma.config.ts",
  "package.json",
  "package-lock.json",
  ".env",
  ".env.local",
  ".env.production",
  ".env.production.local",
] as const;

/** The generated Prisma client follows from prisma/ and the lockfile, both hashed; the build regenerates it. */
const DERIVED = new Set(["lib/db/generated"]);

/** Environment that Next bakes into the build: next.config.mjs's allowed origins, and public variables it inlines. */
function buildEnv(env: Env): Record<string, string> {
  const names = ["ASSAY_ALLOWED_ORIGINS", ...Object.keys(env).filter((name) => name.startsWith("NEXT_PUBLIC_"))];
  return Object.fromEntries(names.sort().map((name) => [name, sha256(env[name] ?? "")]));
}

type Env = Record<string, string | undefined>;

const fingerprintSchema = z.object({
  /** Relative path → sha256 of its contents. */
  files: z.record(z.string(), z.string()),
  /** Variable name → sha256 of its value (unset counts as empty). */
  env: z.record(z.string(), z.string()),
  /** The .next/BUILD_ID the build wrote: another build in .next (`npm run build`, the tests) changes it. */
  buildId: z.string().optional(),
});

export type BuildFingerprint = z.infer<typeof fingerprintSchema>;

export type BuildDecision =
  { build: false; message: string } | { build: true; message: string; fingerprint: BuildFingerprint };

const FINGERPRINT_FILE = path.join(".next", "assay-build-fingerprint.json");

export function computeBuildFingerprint(root: string, env: Env): BuildFingerprint {
  const files: Record<string, string> = {};
  for (const input of BUILD_INPUTS) hashInto(root, input, files);
  return { files, env: buildEnv(env) };
}

/** Compares the sources with the fingerprint of the last build, and says what it found. */
export function decideBuild(root: string, env: Env): BuildDecision {
  const current = computeBuildFingerprint(root, env);
  const buildId = readBuildId(root);
  if (buildId === null) return { build: true, message: "building: no earlier build in .next", fingerprint: current };
  const previous = readFingerprint(root);
  if (previous === null)
    return {
      build: true,
      message: "rebuilding: the build in .next was not made by npm start, so its sources are unknown",
      fingerprint: current,
    };
  if (previous.buildId !== buildId)
    return {
      build: true,
      message: "rebuilding: .next holds another build (npm run build or the tests made it)",
      fingerprint: current,
    };
  const changes = describeChanges(previous, current);
  if (changes !== null) return { build: true, message: `rebuilding: ${changes}`, fingerprint: current };
  const count = Object.keys(current.files).length;
  return {
    build: false,
    message: `build is up to date (${count} source files, the lockfile and ASSAY_ALLOWED_ORIGINS unchanged since it was made); skipping next build`,
  };
}

/** Records what the build in .next was made from; called after a successful build. */
export function writeBuildFingerprint(root: string, fingerprint: BuildFingerprint): void {
  const buildId = readBuildId(root) ?? undefined;
  fs.writeFileSync(path.join(root, FINGERPRINT_FILE), JSON.stringify({ ...fingerprint, buildId }));
}

/** "app/page.tsx changed, lib/a.ts added and 3 more", or null when nothing changed. */
export function describeChanges(previous: BuildFingerprint, current: BuildFingerprint): string | null {
  const changes: string[] = [];
  const names = new Set([...Object.keys(previous.files), ...Object.keys(current.files)]);
  for (const name of [...names].sort()) {
    const before = previous.files[name];
    const after = current.files[name];
    if (before === after) continue;
    changes.push(`${name} ${before === undefined ? "added" : after === undefined ? "removed" : "changed"}`);
  }
  const variables = new Set([...Object.keys(previous.env), ...Object.keys(current.env)]);
  for (const name of [...variables].sort())
    if ((previous.env[name] ?? EMPTY) !== (current.env[name] ?? EMPTY)) changes.push(`${name} changed`);
  if (changes.length === 0) return null;
  const shown = changes.slice(0, 3).join(", ");
  return changes.length > 3 ? `${shown} and ${changes.length - 3} more` : shown;
}

const EMPTY = sha256("");

function hashInto(root: string, relative: string, files: Record<string, string>): void {
  if (DERIVED.has(relative)) return;
  const full = path.join(root, relative);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
  } catch {
    return; // an optional input (.env, instrumentation.ts) that is not there
  }
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(full).sort()) hashInto(root, path.posix.join(relative, entry), files);
  } else if (stat.isFile()) {
    files[relative] = sha256(fs.readFileSync(full));
  }
}

function readBuildId(root: string): string | null {
  try {
    return fs.readFileSync(path.join(root, ".next", "BUILD_ID"), "utf8").trim();
  } catch {
    return null;
  }
}

function readFingerprint(root: string): BuildFingerprint | null {
  try {
    const parsed = fingerprintSchema.safeParse(JSON.parse(fs.readFileSync(path.join(root, FINGERPRINT_FILE), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
