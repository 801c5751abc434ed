import Link from "next/link";
import { CardFrame } from "@/components/ui/Card";
import { storedComparison } from "@/lib/alignment/heldOutComparison";
import type { StoredAlignment } from "@/lib/db/alignments/judgeAlignments";

/** A judge's aligned versions on the dataset, newest first: each with its status and what its held-out rows showed. */
export function AlignmentHistory({ alignments }: { alignments: StoredAlignment[] }) {
  if (alignments.length === 0) return null;
  return (
    <CardFrame data-testid="alignment-history">
      <h2 className="text-sm font-semibold">Earlier aligned versions of this judge</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {alignments.map((alignment) => {
          const comparison = storedComparison(alignment.comparison);
          return (
            <li key={alignment.id}>
              <Link href={`/alignments/${alignment.id}`} className="text-indigo-700 hover:underline">
                {alignment.judgeName}
              </Link>{" "}
              <span className="text-xs text-slate-600">
                {alignment.status}
                {comparison ? `, ${comparison.verdict}` : ""}, {alignment.heldOutKeys.length} held out,{" "}
                {alignment.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
              </span>
            </li>
          );
        })}
      </ul>
    </CardFrame>
  );
}
