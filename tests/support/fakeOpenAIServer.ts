import { z } from "zod";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { hashString, seededRandom } from "./fakeOpenAISchema";
import { buildCompletion, type AnswerHooks, type ChatBody } from "./fakeOpenAIAnswers";

export type { AnswerMode, ChatBody, Responder, ResponderContext, ResponderResult } from "./fakeOpenAIAnswers";

/**
 * A real HTTP server speaking enough of the chat-completions API for the real
 * openai SDK: OpenAI paths (/v1/chat/completions, /chat/completions) and
 * Azure's /openai/deployments/:deployment/chat/completions. Deterministic:
 * answers derive from a hash of the request, random faults from a seeded PRNG.
 * Listens on 127.0.0.1 only, and drops any connection from elsewhere.
 */
export type FaultKind = "429" | "500" | "timeout" | "invalid_json" | "schema_violation" | "400" | "401";
export type Outcome = "ok" | FaultKind | "404";

export type Behaviour = {
  latencyMs: number;
  /** Probabilities (0..1, summed at most 1) of each fault per request, drawn from the seeded PRNG. */
  faultRate: Partial<Record<"status429" | "status500" | "timeout" | "invalidJson" | "schemaViolation", number>>;
  /** Sent as Retry-After on 429s; null sends none. */
  retryAfterSeconds: number | null;
  /** Sent as retry-after-ms on 429s when set. */
  retryAfterMs: number | null;
  seed: number;
};

/** `message` replaces the error text of a 400/401/429/500, e.g. to mimic a server rejecting a parameter. */
export type Fault = { kind: FaultKind; message?: string };

export type FakeServerOptions = AnswerHooks & {
  /** When set, requests with any other key get a 401 (which echoes the key, as real servers partly do). */
  apiKey?: string;
  /**
   * false keeps no request in `requests` (the counters still count): a long benchmark's tens of thousands of
   * kept bodies made the server's own garbage collection slow it down as it went, so a later run's calls took
   * longer than an earlier one's for no reason of the app's.
   */
  logRequests?: boolean;
  behaviour?: Partial<Behaviour>;
};

export type LoggedRequest = {
  index: number;
  path: string;
  deployment: string | null;
  apiVersion: string | null;
  auth: "bearer" | "api-key" | "none";
  body: ChatBody;
  outcome: Outcome;
};

export type FakeServerStats = {
  totalRequests: number;
  inFlight: number;
  maxInFlight: number;
  /**
   * In flight, not counting requests held by a "timeout" fault: those are
   * hung requests the client has already given up on, but the server may only
   * notice the closed socket after the client's next request has arrived.
   */
  maxInFlightExcludingHung: number;
  outcomes: Record<Outcome, number>;
  requests: LoggedRequest[];
};

export type FakeOpenAIServer = {
  /** Base URL including /v1, for `new OpenAI({ baseURL })`. */
  url: string;
  /** Scheme, host and port, for Azure's `endpoint`. */
  origin: string;
  stats: FakeServerStats;
  requests: LoggedRequest[];
  setBehaviour(change: Partial<Behaviour>): void;
  /** Faults for the next requests, in order, before any random fault. */
  enqueue(...faults: Array<FaultKind | Fault>): void;
  close(): Promise<void>;
};

const AZURE_PATH = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

export async function startFakeOpenAIServer(options: FakeServerOptions = {}): Promise<FakeOpenAIServer> {
  let behaviour: Behaviour = {
    latencyMs: 0,
    faultRate: {},
    retryAfterSeconds: 1,
    retryAfterMs: null,
    seed: 1,
    ...options.behaviour,
  };
  let random = seededRandom(behaviour.seed);
  const queue: Fault[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const requests: LoggedRequest[] = [];
  const outcomes = Object.fromEntries(
    ["ok", "429", "500", "timeout", "invalid_json", "schema_violation", "400", "401", "404"].map((k) => [k, 0]),
  ) as Record<Outcome, number>;
  const stats: FakeServerStats = {
    totalRequests: 0,
    inFlight: 0,
    maxInFlight: 0,
    maxInFlightExcludingHung: 0,
    outcomes,
    requests,
  };
  let answerableInFlight = 0;

  function rollFault(): FaultKind | null {
    const rates = behaviour.faultRate;
    const draw = random();
    let edge = 0;
    const table: Array<[number | undefined, FaultKind]> = [
      [rates.status429, "429"],
      [rates.status500, "500"],
      [rates.timeout, "timeout"],
      [rates.invalidJson, "invalid_json"],
      [rates.schemaViolation, "schema_violation"],
    ];
    for (const [rate, kind] of table) {
      edge += rate ?? 0;
      if (draw < edge) return kind;
    }
    return null;
  }

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const azure = AZURE_PATH.exec(url.pathname);
    const known = azure || url.pathname === "/v1/chat/completions" || url.pathname === "/chat/completions";
    if (req.method !== "POST" || !known) {
      outcomes["404"] += 1;
      return sendJson(res, 404, {
        error: { message: `fake server: no route for ${req.method} ${url.pathname}`, type: "invalid_request_error" },
      });
    }
    let body: ChatBody;
    try {
      body = z.record(z.string(), z.unknown()).parse(JSON.parse(await readBody(req)));
    } catch {
      outcomes["400"] += 1;
      return sendJson(res, 400, { error: { message: "fake server: body is not JSON", type: "invalid_request_error" } });
    }

    stats.totalRequests += 1;
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    // 'close' fires once whether we answered or the client gave up (timeouts).
    res.once("close", () => {
      stats.inFlight -= 1;
    });

    const auth = req.headers["api-key"] ? "api-key" : req.headers.authorization ? "bearer" : "none";
    const presentedKey = String(req.headers["api-key"] ?? req.headers.authorization?.replace(/^Bearer\s+/i, "") ?? "");
    const entry: LoggedRequest = {
      index: stats.totalRequests - 1,
      path: url.pathname,
      deployment: azure ? decodeURIComponent(azure[1]) : null,
      apiVersion: url.searchParams.get("api-version"),
      auth,
      body,
      outcome: "ok",
    };
    if (options.logRequests !== false) requests.push(entry);

    const queued = queue.shift();
    let fault: FaultKind | null = queued?.kind ?? rollFault();
    let message = queued?.message;
    if (options.apiKey !== undefined && presentedKey !== options.apiKey) fault = "401";
    if (azure && !entry.apiVersion) {
      fault = "400";
      message = "api-version query parameter is required";
    }
    entry.outcome = fault ?? "ok";
    outcomes[entry.outcome] += 1;
    if (fault !== "timeout") {
      answerableInFlight += 1;
      stats.maxInFlightExcludingHung = Math.max(stats.maxInFlightExcludingHung, answerableInFlight);
      res.once("close", () => {
        answerableInFlight -= 1;
      });
    }

    if (behaviour.latencyMs > 0) await wait(behaviour.latencyMs);
    if (res.destroyed) return;

    switch (fault) {
      case "timeout":
        return; // hold until the client aborts or close() destroys the socket
      case "429": {
        const headers: Record<string, string> = {};
        if (behaviour.retryAfterSeconds !== null) headers["retry-after"] = String(behaviour.retryAfterSeconds);
        if (behaviour.retryAfterMs !== null) headers["retry-after-ms"] = String(behaviour.retryAfterMs);
        return sendJson(
          res,
          429,
          { error: { message: message ?? "Rate limit reached (fake)", type: "requests", code: "rate_limit_exceeded" } },
          headers,
        );
      }
      case "500":
        return sendJson(res, 500, {
          error: { message: message ?? "The server had an error (fake)", type: "server_error" },
        });
      case "400":
        return sendJson(res, 400, {
          error: { message: message ?? "Invalid request (fake)", type: "invalid_request_error" },
        });
      case "401":
        // Echoes the whole presented key: worse than real servers, so redaction is tested hard.
        return sendJson(res, 401, {
          error: {
            message: message ?? `Incorrect API key provided: ${presentedKey}.`,
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        });
      default:
        return sendJson(res, 200, await buildCompletion(body, entry, fault, options));
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 500, { error: { message: `fake server bug: ${String(error)}` } });
    });
  });
  // Belt and braces on top of binding to 127.0.0.1: refuse any non-loopback peer.
  server.on("connection", (socket) => {
    const peer = socket.remoteAddress ?? "";
    if (peer !== "127.0.0.1" && peer !== "::ffff:127.0.0.1") socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    stats,
    requests,
    setBehaviour(change) {
      behaviour = { ...behaviour, ...change, faultRate: { ...behaviour.faultRate, ...change.faultRate } };
      if (change.seed !== undefined) random = seededRandom(change.seed);
    },
    enqueue(...faults) {
      for (const fault of faults) queue.push(typeof fault === "string" ? { kind: fault } : fault);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Held "timeout" requests would otherwise keep close() waiting forever.
        server.closeAllConnections();
      });
    },
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Exposed for tests that want the same hash the server uses. */
export { hashString };
