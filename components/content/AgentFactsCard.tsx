import { Card } from "@/components/ui/Card";
import { formatCount, formatSeconds } from "@/lib/charts/format";

type AgentFacts = {
  latencySeconds: number | null | undefined;
  /** Left out where the source gives no total (a generation call reports input and output only). */
  totalTokenCount?: number | null;
  inputTokenCount: number | null | undefined;
  outputTokenCount: number | null | undefined;
};

/** A row's agent metrics (latency and tokens) and, when it has a trace, its spans by type. */
export function AgentFactsCard({
  subtitle,
  facts,
  trace,
}: {
  subtitle?: string;
  facts: AgentFacts;
  trace: { spans: number; types: Record<string, number> } | null;
}) {
  return (
    <Card title="Agent" subtitle={subtitle}>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Latency</dt>
        <dd className="tabular-nums">{formatSeconds(facts.latencySeconds)}</dd>
        {facts.totalTokenCount !== undefined && (
          <>
            <dt className="text-slate-500">Total tokens</dt>
            <dd className="tabular-nums">{formatCount(facts.totalTokenCount)}</dd>
          </>
        )}
        <dt className="text-slate-500">Input tokens</dt>
        <dd className="tabular-nums">{formatCount(facts.inputTokenCount)}</dd>
        <dt className="text-slate-500">Output tokens</dt>
        <dd className="tabular-nums">{formatCount(facts.outputTokenCount)}</dd>
        {trace && (
          <>
            <dt className="text-slate-500">Trace</dt>
            <dd>
              {trace.spans} spans (
              {Object.entries(trace.types)
                .map(([type, n]) => `${n} ${type}`)
                .join(", ")}
              )
            </dd>
          </>
        )}
      </dl>
    </Card>
  );
}
