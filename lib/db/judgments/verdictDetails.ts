import { z } from "zod";
import type { VerdictDetails } from "@/lib/contract/judgeResult";

/**
 * JudgmentItem.details (a score's intermediate verdicts) decoded and validated
 * here, where it is read, so readers get typed values. A value that does not
 * fit (written by a later version, or damaged) reads as null: the score stands
 * without its explanation rather than failing the page.
 */
const detailsSchema = z.object({
  groups: z.array(
    z.object({
      title: z.string(),
      items: z.array(
        z.object({
          text: z.string(),
          verdict: z.string(),
          reason: z.string().nullable().optional(),
          tags: z.array(z.string()).optional(),
        }),
      ),
    }),
  ),
  figures: z.record(z.string(), z.number().nullable()).optional(),
  notes: z.array(z.string()).optional(),
});

export function decodeVerdictDetails(json: string | null): VerdictDetails | null {
  if (json === null) return null;
  try {
    const parsed = detailsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
