import http from "node:http";
import type { AddressInfo } from "node:net";
import { pipeToNodeResponse } from "next/dist/server/pipe-readable.js";

export type RouteServer = { baseUrl: string; close: () => Promise<void> };

/**
 * Serves App Router route handlers on 127.0.0.1 without building the app:
 * the handler's Response is written to the socket by Next's own
 * pipeToNodeResponse (what `next start` uses for a route handler's body), so
 * what a real HTTP client sees (status, chunked body, an aborted connection)
 * is what it would see from the app.
 */
export async function startRouteServer(handle: (request: Request) => Promise<Response>): Promise<RouteServer> {
  // serve catches its own errors, so the server need not wait on it.
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      // The Host header goes through as Next passes it: the guard checks it while sign-in is off.
      const headers = { host: req.headers.host ?? "" };
      const response = await handle(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers }));
      res.statusCode = response.status;
      response.headers.forEach((value, name) => res.setHeader(name, value));
      if (response.body) await pipeToNodeResponse(response.body, res);
      else res.end();
    } catch (error) {
      // Next logs a failed pipe; the connection is already torn down by then.
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end(String(error));
      } else if (!res.destroyed) res.destroy();
    }
  };
  const server = http.createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
