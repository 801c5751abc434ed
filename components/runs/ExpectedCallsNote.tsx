"use client";

import { formatInteger } from "@/lib/charts/format";
import { expectedLlmCalls, type CallsOption } from "@/lib/metrics/expectedCalls";

/** The LLM calls the chosen set will make, before the run starts (eligible rows × calls per row; 0 from a warm cache). */
export function ExpectedCallsNote(props: {
  options: CallsOption[];
  selected: ReadonlySet<string>;
  offline: boolean;
  rowCount: number;
  customJudges: number;
  gEvalJudges: number;
}) {
  const calls = expectedLlmCalls(props);
  return (
    <p className="text-xs text-slate-700" data-testid="expected-calls">
      {props.offline ? (
        "Expected LLM calls: 0 (the offline heuristic judge makes none)."
      ) : (
        <>
          Expected LLM calls: <strong className="tabular-nums">{formatInteger(calls.total)}</strong> at most
          {calls.perMetric.length + (calls.custom > 0 ? 1 : 0) > 1 && (
            <>
              {" "}
              ({calls.perMetric.map((m) => `${m.name.split("/").pop()} ${formatInteger(m.calls)}`).join(", ")}
              {calls.custom > 0 ? `${calls.perMetric.length > 0 ? ", " : ""}custom ${formatInteger(calls.custom)}` : ""}
              )
            </>
          )}
          ; answers already in the judge cache cost none.
        </>
      )}
    </p>
  );
}
