import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { redactSecrets, truncateForMessage } from "./llmErrors";

/**
 * Which failures are worth another attempt, and how long to wait first.
 * The SDK runs with maxRetries 0 so that this module alone decides: attempts
 * are counted, Retry-After is honoured, and the limiter slot is free while we wait.
 */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 20_000;
/** A server asking for more than this is treated as asking for this: a run must not stall for hours on one header. */
export const RETRY_AFTER_CAP_MS = 60_000;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;
export type Random = () => number;

export type FailureClass =
  | { kind: "aborted" }
  | { kind: "retryable"; status: number | null; summary: string; retryAfterMs: number | null }
  | { kind: "fatal"; status: number | null; summary: string };

/**
 * "Full jitter" (AWS architecture blog): a uniform wait in [0, min(cap, base·2^n)].
 * Spreading retries uniformly stops many parallel judges that hit the same 429
 * from coming back in lockstep.
 */
export function backoffDelayMs(retryNumber: number, random: Random = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retryNumber - 1));
  return Math.floor(random() * ceiling);
}

type HeaderSource = { get(name: string): string | null } | null | undefined;

/** The wait a server asked for, from `retry-after-ms` (OpenAI, Azure) or `Retry-After` (seconds or HTTP-date). */
export function retryAfterFromHeaders(headers: HeaderSource, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) {
    return Math.min(Number(ms), RETRY_AFTER_CAP_MS);
  }
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.min(seconds * 1000, RETRY_AFTER_CAP_MS) : null;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - now), RETRY_AFTER_CAP_MS);
}

/** The wait before retry number `retryNumber` (1 = first retry): the server's wish when it stated one, else jittered backoff. */
export function retryDelayMs(
  failure: Extract<FailureClass, { kind: "retryable" }>,
  retryNumber: number,
  random: Random = Math.random,
): number {
  return failure.retryAfterMs ?? backoffDelayMs(retryNumber, random);
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function statusLabel(status: number): string {
  return STATUS_TEXT[status] ? `${status} ${STATUS_TEXT[status]}` : `HTTP ${status}`;
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Sorts an error thrown by the SDK (or by fetch underneath it). `secrets` are
 * scrubbed from any server text we quote, on top of the generic key patterns.
 */
export function classifyFailure(error: unknown, secrets: ReadonlyArray<string | null> = []): FailureClass {
  if (error instanceof APIUserAbortError || isAbortError(error)) return { kind: "aborted" };
  // Timeout is a subclass of connection error, so test it first.
  if (error instanceof APIConnectionTimeoutError)
    return { kind: "retryable", status: null, summary: "request timed out", retryAfterMs: null };
  if (error instanceof APIConnectionError)
    return { kind: "retryable", status: null, summary: "could not connect to the judge endpoint", retryAfterMs: null };
  if (error instanceof APIError && typeof error.status === "number") {
    const status = error.status;
    if (isRetryableStatus(status)) {
      return {
        kind: "retryable",
        status,
        summary: statusLabel(status),
        retryAfterMs: retryAfterFromHeaders(error.headers),
      };
    }
    return { kind: "fatal", status, summary: fatalSummary(status, serverText(error), secrets) };
  }
  // Anything else (a bug, a non-HTTP failure) is not something waiting fixes.
  const text = error instanceof Error ? error.message : String(error);
  return {
    kind: "fatal",
    status: null,
    summary: `unexpected error: ${truncateForMessage(redactSecrets(text, secrets), 200)}`,
  };
}

function fatalSummary(status: number, text: string | null, secrets: ReadonlyArray<string | null>): string {
  // Never quote the server on auth failures: OpenAI's 401 body echoes part of the key.
  if (status === 401) return "the judge endpoint rejected the API key (401)";
  if (status === 403)
    return "the judge endpoint refused access (403): check the key's permissions and the model or deployment name";
  if (status === 404)
    return "the judge endpoint returned 404 Not Found: check the base URL and the model or deployment name";
  const detail = text ? `: ${truncateForMessage(redactSecrets(text, secrets), 200)}` : "";
  return `the judge endpoint rejected the request (${statusLabel(status)})${detail}`;
}

/** The server's own explanation (e.g. "response_format json_schema is not supported"), which users need to fix a 400. */
function serverText(error: APIError): string | null {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === "string" && body.message.trim() !== "") return body.message;
  return null;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/** setTimeout that wakes early, rejecting, when the signal aborts, so a cancelled run does not sit out a 60 s Retry-After. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new DOMException("The operation was aborted.", "AbortError"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("The operation was aborted.", "AbortError"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
