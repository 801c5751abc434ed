import { randomUUID } from "node:crypto";
import { redactSecrets } from "@/lib/llm/llmErrors";

/** Strips the configured keys, and anything shaped like a key, before text reaches a log or a user. */
export function redactServerText(text: string): string {
  return redactSecrets(text, [process.env.OPENAI_API_KEY, process.env.AZURE_OPENAI_API_KEY]);
}

/**
 * Logs an unexpected server error with a short reference and returns that
 * reference, so the user sees "ref abc123" instead of a stack trace.
 */
export function logServerError(context: string, error: unknown): string {
  const ref = (error as { ref?: unknown })?.ref;
  const reference = typeof ref === "string" ? ref : randomUUID().slice(0, 8);
  const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
  console.error(`[assay] ${context} (ref ${reference}): ${redactServerText(detail)}`);
  return reference;
}
