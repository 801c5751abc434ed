import { VerdictChip, type VerdictView } from "@/components/runs/VerdictChip";
import { InertMarkdown } from "./InertMarkdown";

/** One judge's verdict on one chunk (a run's per-chunk metrics), with its rationale or error. */
export type ChunkVerdictView = {
  key: string;
  metric: string;
  verdict: VerdictView;
  text: string | null;
  /** Whose verdict, where one chunk carries several runs' (the compare row page: "Baseline", "Candidate"). */
  source?: string;
};

export type ChunkView = {
  position: number;
  docUri: string;
  content: string | null;
  expected?: boolean;
  verdicts?: ChunkVerdictView[];
};

/** Retrieved (or expected) chunks in rank order, each with its doc_uri; expected documents are marked, and a run's per-chunk verdicts follow each chunk. */
export function ChunkList({ chunks, emptyText }: { chunks: ChunkView[]; emptyText: string }) {
  if (chunks.length === 0) return <p className="text-sm text-slate-400">{emptyText}</p>;
  return (
    <ol className="space-y-2">
      {chunks.map((chunk) => (
        <li key={chunk.position} className="rounded-md border border-slate-200 bg-white" data-testid="chunk">
          <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-3 py-1.5 text-xs">
            <span className="rounded bg-slate-800 px-1.5 py-0.5 font-mono text-[11px] text-white">
              #{chunk.position + 1}
            </span>
            <code className="break-all font-mono text-slate-700">{chunk.docUri}</code>
            {chunk.expected !== undefined &&
              (chunk.expected ? (
                <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-emerald-800">expected document</span>
              ) : (
                <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-500">
                  not in expected_retrieved_context
                </span>
              ))}
          </div>
          <div className="px-3 py-2">
            {chunk.content ? (
              <InertMarkdown text={chunk.content} />
            ) : (
              <span className="text-xs italic text-slate-400">no content (doc_uri only)</span>
            )}
          </div>
          {chunk.verdicts?.map((verdict) => (
            <div
              key={verdict.key}
              className="flex items-start gap-2 border-t border-slate-100 bg-slate-50 px-3 py-1.5 text-xs"
              data-testid="chunk-verdict"
            >
              {verdict.source && <span className="font-medium text-slate-500">{verdict.source}</span>}
              <VerdictChip verdict={verdict.verdict} />
              <span className="font-medium text-slate-600">{verdict.metric.split("/").pop()}</span>
              <span className="text-slate-700">{verdict.text}</span>
            </div>
          ))}
        </li>
      ))}
    </ol>
  );
}
