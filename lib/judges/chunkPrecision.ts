import type { ChunkVerdict, JudgeVerdict, Rating } from "@/lib/contract/judgeResult";

/**
 * Agent Evaluation's judge reference: precision = relevant chunks returned / all chunks returned. An
 * errored chunk is neither relevant nor irrelevant, so a row with one has no
 * precision at all: never a precision over the judged chunks only (yes, no,
 * no, error is not 1/3). null when some chunk has no rating or there are none.
 */
export function precisionOf(ratings: (Rating | null)[]): number | null {
  if (ratings.length === 0 || ratings.some((rating) => rating === null)) return null;
  return ratings.filter((rating) => rating === "yes").length / ratings.length;
}

/**
 * A per-chunk judge's row verdict from its chunks' verdicts. When any chunk
 * errored, the row is an error that names the chunks (counted beside the
 * value like every other error); the chunks that were judged keep their
 * verdicts, stored and shown.
 */
export function rowVerdictFromChunks(chunks: ChunkVerdict[], rationale: string | null = null): JudgeVerdict {
  const failed = chunks.filter((chunk) => chunk.rating === null);
  if (failed.length === 0)
    return {
      rating: null,
      score: precisionOf(chunks.map((chunk) => chunk.rating)),
      rationale,
      errorMessage: null,
      chunks,
    };
  return { rating: null, score: null, rationale, errorMessage: describeFailedChunks(failed, chunks.length), chunks };
}

/** "chunk 3 of 4 was not judged: <why>" or "chunks 1, 3 of 4 were not judged: chunk 1: <why>; chunk 3: <why>" (1-based, as the UI shows chunks). */
function describeFailedChunks(failed: ChunkVerdict[], total: number): string {
  const numbers = failed.map((chunk) => chunk.position + 1);
  const reasons = [...new Set(failed.map((chunk) => chunk.errorMessage ?? "no verdict"))];
  const which =
    failed.length === 1 ? `chunk ${numbers[0]} of ${total} was` : `chunks ${numbers.join(", ")} of ${total} were`;
  const why =
    reasons.length === 1
      ? reasons[0]
      : failed.map((chunk) => `chunk ${chunk.position + 1}: ${chunk.errorMessage ?? "no verdict"}`).join("; ");
  return `precision not computed: ${which} not judged (${why})`;
}
