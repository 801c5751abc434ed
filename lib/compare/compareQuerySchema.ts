import { z } from "zod";

/** The compare page's URL state: runs (repeated or comma-separated), baseline, and the flip list's filters and page. */
export const compareQuerySchema = z.object({
  runs: z.array(z.string().min(1).max(100)).max(8).catch([]),
  baseline: z.string().max(100).optional().catch(undefined),
  candidate: z.string().max(100).optional().catch(undefined),
  metric: z.string().max(300).optional().catch(undefined),
  direction: z.enum(["regressions", "improvements"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export function parseCompareQuery(searchParams: Record<string, string | string[] | undefined>): CompareQuery {
  const raw = searchParams.runs;
  const runs = (Array.isArray(raw) ? raw : raw ? [raw] : []).flatMap((value) => value.split(",")).map((id) => id.trim()).filter(Boolean);
  const one = (key: string) => {
    const value = searchParams[key];
    return (Array.isArray(value) ? value[0] : value) as string | undefined;
  };
  return compareQuerySchema.parse({ runs: [...new Set(runs)], baseline: one("baseline") || undefined, candidate: one("candidate") || undefined, metric: one("metric") || undefined, direction: one("direction") || undefined, page: one("page") });
}
