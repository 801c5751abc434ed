import { z } from "zod";

/**
 * Model names (and Azure deployment names) go into request paths: Azure sends
 * `/openai/deployments/{model}/chat/completions` to the endpoint host with the
 * API key header. A name is therefore limited to the characters real model
 * names use, and may not hold a `..` segment, so no name can climb out of the
 * deployments path or add a query string to a request that carries the key.
 */
const MODEL_NAME_PATTERN = /^[A-Za-z0-9._:/-]+$/;
const MAX_MODEL_NAME_LENGTH = 200;

export const MODEL_NAME_RULE = "letters, digits and . _ : / - only, with no '..' segment";

/** Why `name` is not a usable model name, or null when it is. */
export function modelNameProblem(name: string): string | null {
  if (name.length === 0) return "the model name is empty";
  if (name.length > MAX_MODEL_NAME_LENGTH) return `the model name is over ${MAX_MODEL_NAME_LENGTH} characters`;
  if (!MODEL_NAME_PATTERN.test(name)) return `the model name "${shown(name)}" may contain ${MODEL_NAME_RULE}`;
  if (name.split("/").includes("..")) return `the model name "${shown(name)}" may not contain a '..' segment`;
  return null;
}

/** For zod schemas (run configs): a trimmed model name that passes modelNameProblem. */
export const modelNameSchema = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    const problem = modelNameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** Shown in an error: bounded, with control characters made visible. */
function shown(name: string): string {
  const cut = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return cut.replace(/[\p{Cc}\p{Cf}]/gu, (ch) => `\\u${ch.codePointAt(0)?.toString(16).padStart(4, "0")}`);
}
