import { alignmentDetailSchema } from "@/lib/api/alignmentSchemas";
import { formatComparison, runMetricNamed, writeAlignedJudge } from "./alignedJudgeOutput";
import type { ApiClient } from "./apiClient";

/**
 * `--server URL --align JUDGE`: the judge of the run just judged on the server is aligned there (the API's
 * POST /api/v1/runs/{runId}/alignments), followed until measured, and printed and written as a local
 * alignment is (lib/cli/alignCommand.ts). Returns the exit code: 0 measured, 2 refused, 3 failed.
 */
export async function alignOnServer(
  client: ApiClient,
  run: { id: string; metrics: readonly string[] },
  request: { judge: string; guidance?: string; out?: string },
  io: { log(line: string): void; error(line: string): void; pollMs?: number },
): Promise<number> {
  const metric = runMetricNamed(run.metrics, request.judge);
  if (!metric) {
    io.error(
      `Error: --align ${request.judge}: no judge of this run has that name; its judges: ${run.metrics.join(", ")}`,
    );
    return 2;
  }
  let alignment = await client.json("POST", `/api/v1/runs/${run.id}/alignments`, alignmentDetailSchema, {
    metric,
    ...(request.guidance ? { guidance: request.guidance } : {}),
  });
  io.log(
    `\nAligning ${metric} on the server: ${alignment.trainingLabels} training labels (${alignment.examples} shown as examples), ${alignment.heldOutLabels} held out and never shown: ${client.base}${alignment.url}`,
  );
  while (alignment.status === "measuring") {
    await new Promise((resolve) => setTimeout(resolve, io.pollMs ?? 1000));
    alignment = await client.json("GET", `/api/v1/alignments/${alignment.id}`, alignmentDetailSchema);
  }
  if (alignment.status !== "measured" || !alignment.comparison) {
    io.error(`Error: measuring ${alignment.judgeName} failed: ${alignment.errorMessage ?? alignment.status}`);
    return 3;
  }
  io.log(formatComparison(alignment.comparison));
  writeAlignedJudge(alignment, request.out, io);
  return 0;
}
