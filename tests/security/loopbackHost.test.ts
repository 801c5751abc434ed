// While sign-in is off, only requests addressed to a loopback name are served (lib/server/loopbackHost.ts):
// a rebound domain or a tunnel arrives with its own name in Host or X-Forwarded-Host.
import { describe, expect, it } from "vitest";
import { checkAccess, resolveUser } from "@/lib/auth/guard";
import { checkLoopbackAddressed } from "@/lib/auth/loopbackHost";

const headers = (values: Record<string, string>) => new Headers(values);

describe("checkLoopbackAddressed", () => {
  it("accepts localhost, 127.0.0.0/8 and [::1], with or without a port", () => {
    for (const host of [
      "localhost",
      "localhost:3000",
      "127.0.0.1",
      "127.0.0.1:3999",
      "127.8.9.10:80",
      "[::1]",
      "[::1]:3000",
      "LOCALHOST:3000",
    ])
      expect(checkLoopbackAddressed(headers({ host })), host).toEqual({ ok: true });
    expect(checkLoopbackAddressed(headers({ host: "127.0.0.1:3000", "x-forwarded-host": "localhost:3000" }))).toEqual({
      ok: true,
    });
  });

  it("refuses any other name, a rebound domain first, and says why and what to do", () => {
    const rebound = checkLoopbackAddressed(headers({ host: "evil.example:3000" }));
    expect(rebound.ok).toBe(false);
    expect(!rebound.ok && rebound.message).toContain(
      "Assay refused this request: it was addressed to evil.example:3000.",
    );
    expect(!rebound.ok && rebound.message).toContain("ASSAY_AUTH_SECRET");
    expect(!rebound.ok && rebound.message).toContain("http://localhost:<port>");
    for (const host of [
      "127.0.0.1.nip.io:3000",
      "localhost.evil.example",
      "0.0.0.0:3000",
      "192.168.1.4:3000",
      "[::]:3000",
      "[::ffff:7f00:1]x",
      "127.0.0.1:3000@evil.example",
      "abc123.ngrok-free.app",
    ])
      expect(checkLoopbackAddressed(headers({ host })).ok, host).toBe(false);
    expect(checkLoopbackAddressed(new Headers()).ok).toBe(false);
  });

  it("refuses a loopback Host forwarded for another name (a tunnel on this machine)", () => {
    for (const forwarded of ["abc123.ngrok-free.app", "laptop.tail1234.ts.net, 127.0.0.1"]) {
      const check = checkLoopbackAddressed(headers({ host: "127.0.0.1:3000", "x-forwarded-host": forwarded }));
      expect(check.ok, forwarded).toBe(false);
      expect(!check.ok && check.message).toContain(`addressed to ${forwarded.split(",")[0]}`);
    }
  });
});

describe("the guard while sign-in is off", () => {
  // What the routes the proxy leaves alone (upload, label import) rely on, and any path that escapes it.
  const off = { mode: { kind: "off", host: "127.0.0.1" }, auth: () => unreachable() } as const;
  function unreachable(): never {
    throw new Error("sign-in is off: no Better Auth");
  }

  it("acts as the local admin only for a request addressed to a loopback name", async () => {
    expect(await checkAccess("dataset.upload", headers({ host: "127.0.0.1:3000" }), off)).toMatchObject({
      ok: true,
      user: { id: "local", role: "admin" },
    });
    const refused = await checkAccess("dataset.upload", headers({ host: "evil.example:3000" }), off);
    expect(refused).toMatchObject({ ok: false, status: 403 });
    expect(!refused.ok && refused.message).toContain("it was addressed to evil.example:3000");
    expect(await resolveUser(headers({ host: "evil.example:3000" }), off)).toBeNull();
  });
});
