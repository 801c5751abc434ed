import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeHttpFetch } from "@/lib/llm/nodeHttpFetch";

// The engine's fetch reads an answer whole before it resolves: a body cut short must fail the call, never hang it.
let server: http.Server;
let url: string;
let stalled: () => void = () => {};
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/whole") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ answer: "yes", text: "é".repeat(50_000) }));
      return;
    }
    // Headers promise 1,000 bytes; 10 arrive, then the connection goes.
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write('{"answer":');
    if (req.url === "/cut") setImmediate(() => res.socket?.destroy());
    // "/stall" sends nothing more: only the caller's abort ends it.
    if (req.url === "/stall") stalled();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("nodeHttpFetch", () => {
  it("resolves with the whole body, multi-byte text intact across chunks", async () => {
    const response = await nodeHttpFetch(`${url}/whole`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ answer: "yes", text: "é".repeat(50_000) });
  });

  it("rejects when the connection closes mid-body", async () => {
    await expect(nodeHttpFetch(`${url}/cut`)).rejects.toThrow(/fetch failed/);
  });

  it("rejects with the caller's abort while the body is still coming", async () => {
    const controller = new AbortController();
    const bodyStarted = new Promise<void>((resolve) => (stalled = resolve));
    const pending = nodeHttpFetch(`${url}/stall`, { signal: controller.signal });
    await bodyStarted;
    await new Promise((resolve) => setTimeout(resolve, 20)); // the first bytes cross the loopback
    controller.abort(new Error("timed out by the caller"));
    await expect(pending).rejects.toThrow("timed out by the caller");
  });
});
