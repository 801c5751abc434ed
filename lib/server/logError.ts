import { randomUUID } from "node:crypto";

const SECRET_PATTERNS = [/sk-[A-Za-z0-9_-]{8,}/g, /Bearer\s+[A-Za-z0-9._-]+/gi];

/** Strips anything shaped like an API key before text reaches a log or a user. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, "[redacted]");
  const key = process.env.OPENAI_API_KEY;
  if (key && key.length >= 8) out = out.split(key).join("[redacted]");
  return out;
}

/**
 * Logs an unexpected server error with a short reference and returns that
 * reference, so the user sees "ref abc123" instead of a stack trace.
 */
export function logServerError(context: string, error: unknown): string {
  const ref = randomUUID().slice(0, 8);
  const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
  console.error(`[assay] ${context} (ref ${ref}): ${redactSecrets(detail)}`);
  return ref;
}
