import Link from "next/link";
import type { Comparison } from "@/lib/compare/compareRuns";
import { correctionName, CORRECTIONS, DEFAULT_CORRECTION, type Correction } from "@/lib/stats";
import { withParams, type ParamValues } from "@/lib/urlState/withParams";

const WHAT_IT_KEEPS: Record<Correction, string> = {
  holm: "the chance of any false “real” verdict among them stays under",
  bh: "the expected share of false ones among the metrics called real stays under",
  none: "each metric is tested on its own at",
};

/**
 * How the verdicts read the metrics compared: one sentence on what the correction keeps, and links to read them
 * with another (the flip list keeps its filters; its page starts again).
 */
export function CorrectionChoice({ comparison, params }: { comparison: Comparison; params: ParamValues }) {
  const { method, alpha, family } = comparison.correction;
  const sizes = [...new Set(Object.values(family))];
  const size = sizes.length === 1 ? `${sizes[0]}` : "each candidate's";
  const level = `${Number((alpha * 100).toFixed(4))} %`;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600" data-testid="correction">
      <p>
        {method === "none"
          ? `No correction: ${WHAT_IT_KEEPS.none} ${alpha}, so with many metrics some “real” verdicts are noise.`
          : `Verdicts read the ${size} metrics compared together (${correctionName(method)}): ${WHAT_IT_KEEPS[method]} ${level}.`}
      </p>
      <nav aria-label="Correction for the metrics compared" className="flex gap-1">
        {CORRECTIONS.map((choice) => (
          <Link
            key={choice}
            prefetch={false}
            href={withParams("/compare", params, {
              correction: choice === DEFAULT_CORRECTION ? undefined : choice,
              page: undefined,
            })}
            aria-current={choice === method ? "true" : undefined}
            className={`rounded px-2 py-0.5 ${choice === method ? "bg-slate-800 text-white" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {choice === "none" ? "None" : correctionName(choice)}
            {choice === DEFAULT_CORRECTION ? " (default)" : ""}
          </Link>
        ))}
      </nav>
    </div>
  );
}
