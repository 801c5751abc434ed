import { describe, expect, it } from "vitest";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { backoffDelayMs, classifyFailure, retryAfterFromHeaders, BACKOFF_CAP_MS } from "@/lib/llm/retryPolicy";
import { redactSecrets } from "@/lib/llm/llmErrors";

const headers = (entries: Record<string, string>) => new Headers(entries);
const apiError = (status: number, message = "server says no", extra: Record<string, string> = {}) =>
  APIError.generate(status, { error: { message } }, undefined, headers(extra));

describe("backoffDelayMs", () => {
  it("uses full jitter over an exponential ceiling with a 20 s cap", () => {
    expect(backoffDelayMs(1, () => 0.999)).toBe(499);
    expect(backoffDelayMs(2, () => 0.5)).toBe(500);
    expect(backoffDelayMs(3, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(30, () => 0.999)).toBe(Math.floor(0.999 * BACKOFF_CAP_MS));
    expect(backoffDelayMs(5, () => 0)).toBe(0);
  });
});

describe("retryAfterFromHeaders", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it("reads seconds, HTTP-dates and retry-after-ms, capped at 60 s", () => {
    expect(retryAfterFromHeaders(headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(retryAfterFromHeaders(headers({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterFromHeaders(headers({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterFromHeaders(headers({ "retry-after": "3", "retry-after-ms": "1234" }), now)).toBe(1234);
    expect(retryAfterFromHeaders(headers({ "retry-after": "86400" }), now)).toBe(60_000);
    expect(retryAfterFromHeaders(headers({ "retry-after": "soon" }), now)).toBeNull();
    expect(retryAfterFromHeaders(headers({}), now)).toBeNull();
  });
});

describe("classifyFailure", () => {
  it.each([408, 409, 429, 500, 502, 503, 504])("retries %i", (status) => {
    expect(classifyFailure(apiError(status)).kind).toBe("retryable");
  });

  it.each([400, 401, 403, 404, 422])("does not retry %i", (status) => {
    expect(classifyFailure(apiError(status)).kind).toBe("fatal");
  });

  it("retries timeouts and connection errors; recognises aborts", () => {
    expect(classifyFailure(new APIConnectionTimeoutError())).toMatchObject({
      kind: "retryable",
      summary: "request timed out",
    });
    expect(classifyFailure(new APIConnectionError({ message: "ECONNREFUSED" }))).toMatchObject({ kind: "retryable" });
    expect(classifyFailure(new APIUserAbortError()).kind).toBe("aborted");
  });

  it("carries the server's Retry-After", () => {
    expect(classifyFailure(apiError(429, "slow down", { "retry-after": "2" }))).toMatchObject({
      retryAfterMs: 2000,
      summary: "429 Too Many Requests",
    });
  });

  it("never quotes a 401 body, and scrubs keys from other bodies", () => {
    const key = "sk-proj-abcdefghijklmnop1234567890";
    const unauthorized = classifyFailure(apiError(401, `Incorrect API key provided: ${key}`));
    expect(unauthorized).toMatchObject({ kind: "fatal", summary: "the judge endpoint rejected the API key (401)" });
    const bad = classifyFailure(apiError(400, `bad param near ${key}`), [key]);
    expect(JSON.stringify(bad)).not.toContain(key);
    expect(JSON.stringify(bad)).toContain("bad param near");
  });
});

describe("redactSecrets", () => {
  it("removes known secrets and key-shaped tokens but keeps ordinary words", () => {
    expect(redactSecrets("key=my-custom-secret here", ["my-custom-secret"])).toBe("key=[redacted] here");
    expect(redactSecrets("Authorization: Bearer abc.def.ghi")).not.toContain("abc.def");
    expect(redactSecrets("api-key: 0123456789abcdef0123456789abcdef")).toBe("api-key: [redacted]");
    expect(redactSecrets("got sk-live-1234abcd***wxyz back")).toBe("got [redacted] back");
    expect(redactSecrets("schema correctness_verdict_with_chunk_details failed")).toBe(
      "schema correctness_verdict_with_chunk_details failed",
    );
  });
});
