import Link from "next/link";
import { CardFrame } from "@/components/ui/Card";
import { storedComparison } from "@/lib/alignment/heldOutComparison";
import { findAlignmentsOfJudges } from "@/lib/db/alignments/judgeAlignments";
import { getDb } from "@/lib/db/client";
import type { RunRecord } from "@/lib/db/runs/runQueries";
import { decodeCustomJudge } from "@/lib/db/runs/storedRun";
import { metricShortName } from "@/lib/urlState/runRowQuery";

/**
 * A run's aligned judges, each with the proof of its alignment: its agreement on the held-out labels it never
 * saw. The agreement panel has no figure for them (labels are keyed by the original's name), and the original's
 * labels would flatter them: the training labels were their examples.
 */
export async function RunAlignedJudges({ run }: { run: Pick<RunRecord, "datasetId" | "customJudges" | "config"> }) {
  const names = [
    ...run.customJudges.map(decodeCustomJudge).flatMap((judge) => (judge.alignment ? [judge.assessmentName] : [])),
    ...(run.config.gEvalJudges ?? []).flatMap((judge) => (judge.alignment ? [judge.name] : [])),
  ];
  if (names.length === 0) return null;
  const alignments = await findAlignmentsOfJudges(getDb(), run.datasetId, names);
  return (
    <CardFrame aria-labelledby="aligned-judges-title" data-testid="run-aligned-judges">
      <h2 id="aligned-judges-title" className="text-sm font-semibold">
        Aligned judges in this run
      </h2>
      <ul className="mt-1 space-y-1 text-sm">
        {names.map((name) => {
          const alignment = alignments.find((candidate) => candidate.judgeName === name);
          const comparison = alignment ? storedComparison(alignment.comparison) : null;
          return (
            <li key={name}>
              <span className="font-medium">{name}</span>{" "}
              {alignment ? (
                <span className="text-xs text-slate-600">
                  aligned {metricShortName(alignment.metric)}
                  {comparison
                    ? `: ${comparison.verdict} on ${comparison.rows} held-out labels it never saw`
                    : ", not measured"}{" "}
                  ·{" "}
                  <Link href={`/alignments/${alignment.id}`} className="text-indigo-700 hover:underline">
                    its proof
                  </Link>
                </span>
              ) : (
                <span className="text-xs text-slate-600">
                  an aligned judge from a file (its alignment is not on this server)
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="mt-1 text-xs text-slate-500">
        Its agreement with the labels is the proof: the original&apos;s labels would flatter it here, since its training
        labels were its examples.
      </p>
    </CardFrame>
  );
}
