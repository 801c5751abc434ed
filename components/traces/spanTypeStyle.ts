/**
 * The colours of a span type: a badge and a timeline bar, one calm hue per MLflow span type, so the eye
 * follows the model calls or the tools down a long trajectory. An error span's bar is red whatever its type
 * (SpanLine); red is kept out of this table for that reason.
 */
export type SpanTypeStyle = { badge: string; bar: string };

const STYLES: Record<string, SpanTypeStyle> = {
  AGENT: { badge: "bg-indigo-100 text-indigo-800", bar: "bg-indigo-300" },
  CHAT_MODEL: { badge: "bg-sky-100 text-sky-800", bar: "bg-sky-400" },
  LLM: { badge: "bg-sky-100 text-sky-800", bar: "bg-sky-400" },
  TOOL: { badge: "bg-amber-100 text-amber-900", bar: "bg-amber-400" },
  RETRIEVER: { badge: "bg-emerald-100 text-emerald-800", bar: "bg-emerald-400" },
  CHAIN: { badge: "bg-violet-100 text-violet-800", bar: "bg-violet-300" },
  EMBEDDING: { badge: "bg-teal-100 text-teal-800", bar: "bg-teal-400" },
  RERANKER: { badge: "bg-lime-100 text-lime-900", bar: "bg-lime-400" },
  PARSER: { badge: "bg-fuchsia-100 text-fuchsia-800", bar: "bg-fuchsia-300" },
  MEMORY: { badge: "bg-cyan-100 text-cyan-900", bar: "bg-cyan-400" },
};

const OTHER: SpanTypeStyle = { badge: "bg-slate-100 text-slate-700", bar: "bg-slate-400" };

export function spanTypeStyle(type: string): SpanTypeStyle {
  return STYLES[type] ?? OTHER;
}
