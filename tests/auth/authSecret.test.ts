// ASSAY_AUTH_SECRET's one check (lib/auth/authSecret.ts), which the server, the start script and the CLI
// share: trimmed once, 32 characters at least, and not obviously guessable; what docs/security.md tells people
// to run (`openssl rand -base64 32`, or `-hex 32`) always passes.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, readAuthSecret } from "@/lib/auth/authSecret";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("readAuthSecret", () => {
  it("refuses obvious secrets that are long enough", () => {
    for (const weak of [
      "a".repeat(32),
      "abcd".repeat(8),
      "password".repeat(4),
      "abcdefghijklmnopqrstuvwxyz012345",
      "Tr0ub4dor&3".repeat(3),
    ]) {
      expect(weak.length, weak).toBeGreaterThanOrEqual(MIN_SECRET_LENGTH);
      const read = readAuthSecret(weak);
      expect(read.kind, weak).toBe("weak");
      if (read.kind === "weak") expect(read.message).toMatch(/^ASSAY_AUTH_SECRET looks guessable: .*openssl rand/);
    }
  });

  it("accepts what `openssl rand -base64 32` and `-hex 32` make, every time (200,000 draws, same bytes)", () => {
    const refused: string[] = [];
    for (let draw = 0; draw < 100_000; draw++) {
      const bytes = crypto.randomBytes(32);
      for (const secret of [bytes.toString("base64"), bytes.toString("hex")])
        if (readAuthSecret(secret).kind !== "ok") refused.push(secret);
    }
    expect(refused).toEqual([]);
  });

  it.skipIf(!hasOpenssl())("accepts the real openssl's output, newline and all", () => {
    for (let draw = 0; draw < 20; draw++)
      for (const format of ["-base64", "-hex"]) {
        const output = execFileSync("openssl", ["rand", format, "32"], { encoding: "utf8" });
        expect(readAuthSecret(output)).toEqual({ kind: "ok", secret: output.trim() });
      }
  });

  it("trims once: the length counted is the length used, and a blank secret is no secret", () => {
    const secret = crypto.randomBytes(32).toString("base64");
    expect(readAuthSecret(`  ${secret}\n`)).toEqual({ kind: "ok", secret });
    expect(readAuthSecret(` ${secret.slice(0, 31)}${" ".repeat(8)}`)).toMatchObject({
      kind: "weak",
      message: expect.stringContaining("ASSAY_AUTH_SECRET is 31 characters; it needs at least 32.") as unknown,
    });
    expect(readAuthSecret("   ")).toEqual({ kind: "unset" });
    expect(readAuthSecret(undefined)).toEqual({ kind: "unset" });
  });
});
