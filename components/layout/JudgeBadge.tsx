import { describeJudgeProvider } from "@/lib/config/describeJudgeProvider";

/** Shows which judge new runs will use; the offline heuristic judge is labelled as such everywhere. */
export function JudgeBadge() {
  const judge = describeJudgeProvider();
  const offline = judge.provider === "heuristic";
  return (
    <span
      title={
        offline
          ? "No OPENAI_API_KEY, OPENAI_BASE_URL or Azure endpoint is set, so judges run on Assay's built-in lexical heuristics."
          : `Judges call ${judge.label}.`
      }
      className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs ${offline ? "border-amber-300 bg-amber-50 text-amber-800" : "border-emerald-300 bg-emerald-50 text-emerald-800"}`}
    >
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${offline ? "bg-amber-500" : "bg-emerald-500"}`} />
      Judge: {judge.label}
    </span>
  );
}
