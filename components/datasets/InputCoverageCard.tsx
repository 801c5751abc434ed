import { Card } from "@/components/ui/Card";
import { formatInteger } from "@/lib/charts/format";

const COLUMN_NOTES: Record<string, string> = {
  request_id: "given or generated",
  request: "string, messages or query + history",
  response: "as a column (trace-derived ones count under trace)",
  expected_facts: "ground truth: facts a correct answer contains",
  expected_response: "ground truth: a reference answer",
  retrieved_context: "chunks with doc_uri (column or trace)",
  expected_retrieved_context: "ground truth: relevant doc_uris",
  trace: "MLflow trace JSON",
};

/** Which of the Agent Evaluation input schema's columns the rows carry, and on how many rows. */
export function InputCoverageCard({ columns, rowCount }: { columns: Record<string, number>; rowCount: number }) {
  return (
    <Card
      title="Inputs"
      titleId="inputs-heading"
      subtitle="Columns of the evaluation input schema, by rows that carry them."
    >
      <ul className="space-y-2" data-testid="input-coverage">
        {Object.entries(columns).map(([column, count]) => {
          const share = rowCount > 0 ? count / rowCount : 0;
          return (
            <li key={column}>
              <div className="flex items-baseline justify-between gap-2 text-sm">
                <code className={`font-mono text-[13px] ${count === 0 ? "text-slate-400" : "text-slate-800"}`}>
                  {column}
                </code>
                <span className="tabular-nums text-xs text-slate-600">
                  {formatInteger(count)} / {formatInteger(rowCount)}
                </span>
              </div>
              <div className="mt-0.5 h-1.5 overflow-hidden rounded-full bg-slate-100">
                <div className={`h-full ${count === 0 ? "" : "bg-sky-500"}`} style={{ width: `${share * 100}%` }} />
              </div>
              <p className="text-[11px] text-slate-400">{COLUMN_NOTES[column]}</p>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
