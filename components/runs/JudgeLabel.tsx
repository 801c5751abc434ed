/** Who judged: the offline heuristic judge is always labelled as such. */
export function JudgeLabel({ provider, model }: { provider: string; model: string }) {
  if (provider === "heuristic") {
    return (
      <span
        className="inline-flex items-center gap-1 rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs text-amber-800"
        title="Deterministic lexical approximations; no LLM was called."
      >
        Offline heuristic judge · {model}
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-slate-300 bg-slate-50 px-2 py-0.5 text-xs text-slate-700">
      {provider} · {model}
    </span>
  );
}
