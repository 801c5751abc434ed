import { Card } from "@/components/ui/Card";
import { prepareJudgeUsage } from "@/lib/charts/judgeUsage";
import type { MetricLabeller } from "@/lib/charts/labels";
import { getJudgeUsage } from "@/lib/db/judgments/chartQueries";
import { getDb } from "@/lib/db/client";

/** Judge tokens and cost, in total and per LLM-judged metric (server component; sums come from SQL). */
export async function JudgeUsageCard({ runId, labelFor }: { runId: string; labelFor?: MetricLabeller }) {
  const table = prepareJudgeUsage(await getJudgeUsage(getDb(), runId), labelFor);
  return (
    <Card title="Judge usage" subtitle="Tokens the judge model read and wrote, and what they cost" testId="judge-usage">
      <div className="overflow-x-auto">
        <table className="w-full text-xs">
          <thead className="border-b border-slate-200 text-left text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">
                Metric
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Judgments
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Input tokens
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-medium">
                Output tokens
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Cost
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            {table.lines.map((line) => (
              <tr key={line.metric} data-metric={line.metric}>
                <th scope="row" className="py-1 pr-2 text-left font-normal text-slate-700">
                  {line.label}
                </th>
                <td className="py-1 pr-2 text-right">{line.callsText}</td>
                <td className="py-1 pr-2 text-right">{line.inputText}</td>
                <td className="py-1 pr-2 text-right">{line.outputText}</td>
                <td className="py-1 text-right">{line.costText}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-slate-300 font-semibold tabular-nums">
            <tr>
              <th scope="row" className="py-1 pr-2 text-left">
                Total
              </th>
              <td className="py-1 pr-2 text-right">{table.total.callsText}</td>
              <td className="py-1 pr-2 text-right">{table.total.inputText}</td>
              <td className="py-1 pr-2 text-right">{table.total.outputText}</td>
              <td className="py-1 text-right">{table.total.costText}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      {table.note && <p className="mt-2 text-[11px] text-slate-500">{table.note}</p>}
    </Card>
  );
}
