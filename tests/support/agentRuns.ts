import type { Db } from "@/lib/db/client";

/** A one-span MLflow 3 trace of one turn of session `session`, asked at `time` (ISO), answering `answer`. */
export const sessionTurnTrace = (session: string, time: string, answer: string) =>
  oneSpanTrace(answer, {
    trace_id: `tr-${session}-${time}`,
    request_time: time,
    trace_metadata: { "mlflow.trace_schema.version": "3", "mlflow.trace.session": session },
  });

/** A one-span MLflow 3 trace answering `answer`, with the given `info` (trace id, request time, metadata, tags). */
export const oneSpanTrace = (answer: string, info: Record<string, unknown>) => ({
  info: { state: "OK", ...info },
  data: {
    spans: [
      {
        span_id: "r",
        parent_span_id: null,
        name: "agent",
        start_time_unix_nano: "1",
        end_time_unix_nano: "2",
        attributes: { "mlflow.spanType": JSON.stringify("AGENT"), "mlflow.spanOutputs": JSON.stringify(answer) },
      },
    ],
  },
});

/**
 * A run's judgments with their rows' request ids. The ids are read apart: a relation select would bind every row id
 * in one list, which the store's guard refuses.
 */
export async function judgmentsWithRequestIds(db: Db, runId: string, datasetId: string) {
  const requestIds = new Map(
    (await db.datasetRow.findMany({ where: { datasetId }, select: { id: true, requestId: true } })).map((row) => [
      row.id,
      row.requestId,
    ]),
  );
  return (
    await db.judgmentItem.findMany({
      where: { runId },
      select: {
        metric: true,
        status: true,
        rating: true,
        score: true,
        promptVersion: true,
        skipReason: true,
        rowId: true,
      },
    })
  ).map((item) => ({ ...item, requestId: requestIds.get(item.rowId) ?? "" }));
}

/** The calls a plan-judged metric's done judgments made, as their prompt versions name them ("… (4 calls)"). */
export function callsNamed(items: { metric: string; status: string; promptVersion: string | null }[], metric: string) {
  return items
    .filter((item) => item.metric === metric && item.status === "done")
    .map((item) => Number(/\((\d+) calls?\)$/.exec(item.promptVersion ?? "")?.[1] ?? NaN))
    .reduce((sum, n) => sum + n, 0);
}
