import type { TokenUsage } from "@/lib/contract/judgeResult";

/**
 * The one error type the LLM client throws. Its message is shown to users
 * (stored as a judge's errorMessage), so it is built from our own words plus
 * sanitised fragments of server text: no stack, no request, no API key.
 * SDK errors are deliberately NOT attached as `cause`: some servers echo the
 * key back in their 401 body, and a console.error(err) would print it.
 */
export type LlmCallErrorKind =
  /** Every attempt failed with a retryable error (429, 5xx, timeout, connection). */
  | "retries_exhausted"
  /** The server refused the request in a way retrying cannot fix (401, 403, 404, 400…). */
  | "fatal"
  /** The model answered, twice, with something that is not valid JSON for the schema. */
  | "malformed_output"
  /** The caller's AbortSignal fired. */
  | "aborted";

export class LlmCallError extends Error {
  readonly kind: LlmCallErrorKind;
  /** HTTP attempts made so far, including retries and the repair attempt. */
  readonly attempts: number;
  /** Tokens billed so far: failed attempts that returned an answer still cost money. */
  readonly usage: TokenUsage;
  /** HTTP status of the last failure, when there was one. */
  readonly status: number | null;

  constructor(
    kind: LlmCallErrorKind,
    message: string,
    details: { attempts: number; usage: TokenUsage; status?: number | null },
  ) {
    super(message);
    this.name = "LlmCallError";
    this.kind = kind;
    this.attempts = details.attempts;
    this.usage = { ...details.usage };
    this.status = details.status ?? null;
  }
}

export function isLlmCallError(error: unknown): error is LlmCallError {
  return error instanceof LlmCallError;
}

// Shapes that look like credentials whatever the provider: OpenAI-style
// "sk-…" keys (also the masked "sk-abc***xyz" form servers echo), bearer
// tokens, "api-key: …" pairs, and long opaque tokens (Azure keys are 32 hex
// chars, JWTs are longer).
const LONG_TOKEN = /[A-Za-z0-9_\-+/=]{32,}/g;
const KEY_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_*\-.]{4,}/g,
  /\bBearer\s+[^\s"',]+/gi,
  /\b(api[-_]?key|authorization|access[-_]?token)(["']?\s*[:=]\s*["']?)[^\s"',]+/gi,
  LONG_TOKEN,
];

/** Long identifiers like "correctness_verdict_with_chunk_details" are not keys; random tokens mix many digits and letters. */
function looksRandom(token: string): boolean {
  return (token.match(/\d/g)?.length ?? 0) >= 4 && (token.match(/[A-Za-z]/g)?.length ?? 0) >= 4;
}

/**
 * Removes the given secrets and anything key-like from text meant for users
 * or logs. Known secrets are removed first so that a short custom key that
 * matches no pattern is still caught.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | null | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short "secrets" (e.g. a placeholder "x") would shred normal text.
    if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  for (const pattern of KEY_PATTERNS) {
    out = out.replace(pattern, (match: string, name?: unknown, sep?: unknown) => {
      if (typeof name === "string" && typeof sep === "string") return `${name}${sep}[redacted]`;
      return pattern === LONG_TOKEN && !looksRandom(match) ? match : "[redacted]";
    });
  }
  return out;
}

/** Collapses whitespace and cuts server text so one bad answer cannot flood the UI. */
export function truncateForMessage(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
