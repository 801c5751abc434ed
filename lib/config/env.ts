import { z } from "zod";

/**
 * Server environment, validated once. The API key is read here and nowhere
 * else; what the UI may see goes through describeJudgeProvider(), which never
 * includes the key.
 */
const envSchema = z.object({
  OPENAI_API_KEY: z.string().trim().min(1).optional().catch(undefined),
  OPENAI_BASE_URL: z.url({ error: "OPENAI_BASE_URL must be a URL, e.g. http://localhost:11434/v1" }).optional(),
  ASSAY_JUDGE_MODEL: z.string().trim().min(1).default("gpt-4.1-mini"),
});

export type ServerEnv = z.infer<typeof envSchema>;

export function readServerEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const parsed = envSchema.safeParse({
    OPENAI_API_KEY: env.OPENAI_API_KEY || undefined,
    OPENAI_BASE_URL: env.OPENAI_BASE_URL || undefined,
    ASSAY_JUDGE_MODEL: env.ASSAY_JUDGE_MODEL || undefined,
  });
  if (!parsed.success) throw new Error(`Invalid environment: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  return parsed.data;
}

export type JudgeProviderInfo =
  | { provider: "heuristic"; model: "heuristic-v1"; label: string }
  | { provider: "openai"; model: string; endpoint: string; label: string };

/** What the UI shows about the judge: provider, model and endpoint host, never the key. */
export function describeJudgeProvider(env: ServerEnv = readServerEnv()): JudgeProviderInfo {
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
    return { provider: "heuristic", model: "heuristic-v1", label: "Offline heuristic judge (no API key set)" };
  }
  const endpoint = env.OPENAI_BASE_URL ? new URL(env.OPENAI_BASE_URL).host : "api.openai.com";
  return { provider: "openai", model: env.ASSAY_JUDGE_MODEL, endpoint, label: `${env.ASSAY_JUDGE_MODEL} via ${endpoint}` };
}
