/**
 * Where validated judge answers are kept, keyed by (model, prompt version, rendered prompt). Errors are never
 * stored. The judges read and write through it; the store implements it (lib/db/judgeCache).
 */
export interface JudgeCache {
  get(key: string): Promise<{ response: string; inputTokens: number | null; outputTokens: number | null } | null>;
  /** replace: overwrite an existing answer (a deliberate second opinion must become the cached one). */
  put(
    entry: {
      key: string;
      model: string;
      promptVersion: string;
      response: string;
      inputTokens: number;
      outputTokens: number;
    },
    options?: { replace?: boolean },
  ): Promise<void>;
}
