import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { downloadResponse } from "@/lib/server/downloadResponse";
import { startRouteServer, type RouteServer } from "./routeServer";

/**
 * A download that fails must look failed to the client: a script or CI job
 * saving it must not get a clean, truncated file. Served over real HTTP
 * through Next's own body piping and read by node's fetch and by curl.
 */
/** curl in a child process, awaited (the server runs in this process, so a synchronous spawn would deadlock it). */
function curl(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("curl", ["--max-time", "20", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (data) => (stderr += data));
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

const OPTIONS = { filename: "run.csv", contentType: "text/csv; charset=utf-8", context: "test export" };

async function* piecesThenFailure(): AsyncGenerator<string> {
  yield "request_id,response\r\n";
  yield `${"row,text\r\n".repeat(5_000)}`;
  throw new Error("database is locked (page 2)");
}

async function* failsAtOnce(): AsyncGenerator<string> {
  throw new Error("The query parameter limit supported by your database is exceeded.");
}

async function* complete(): AsyncGenerator<string> {
  yield "a,b\r\n";
  yield "1,2\r\n";
}

describe("a streamed export that fails", () => {
  let server: RouteServer;
  const logged: string[] = [];

  beforeAll(async () => {
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    server = await startRouteServer(async (request) => {
      const which = new URL(request.url).pathname;
      const pieces = which === "/mid" ? piecesThenFailure() : which === "/start" ? failsAtOnce() : complete();
      return downloadResponse(pieces, OPTIONS);
    });
  });
  afterAll(async () => {
    await server.close();
    vi.restoreAllMocks();
  });

  it("after bytes went out: the connection is aborted, so fetch's body read rejects and curl exits non-zero; the log has a reference", async () => {
    const response = await fetch(`${server.baseUrl}/mid`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    const fromCurl = await curl(["-sS", "-o", "/dev/null", `${server.baseUrl}/mid`]);
    expect(fromCurl.status).not.toBe(0);
    expect(fromCurl.stderr).toMatch(/curl: \(18\)|transfer closed|outstanding read data/);
    expect(
      logged.some((line) =>
        /test export: failed after the download started, connection aborted \(ref [0-9a-f]{8}\).*database is locked/s.test(
          line,
        ),
      ),
    ).toBe(true);
  });

  it("before any byte: 500 with a short message and the reference that is in the log, no stack trace", async () => {
    const response = await fetch(`${server.baseUrl}/start`);
    expect(response.status).toBe(500);
    const text = await response.text();
    const ref = /ref ([0-9a-f]{8})/.exec(text)?.[1];
    expect(ref).toBeDefined();
    expect(text).not.toMatch(/\n\s+at /);
    expect(text).not.toContain("parameter limit");
    expect(logged.some((line) => line.includes(`(ref ${ref})`) && line.includes("parameter limit"))).toBe(true);
    expect((await curl(["-sS", "--fail", "-o", "/dev/null", `${server.baseUrl}/start`])).status).toBe(22);
  });

  it("a complete export ends cleanly (the control)", async () => {
    const response = await fetch(`${server.baseUrl}/ok`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="run.csv"');
    expect(await response.text()).toBe("a,b\r\n1,2\r\n");
    expect((await curl(["-sS", "--fail", "-o", "/dev/null", `${server.baseUrl}/ok`])).status).toBe(0);
  });
});
