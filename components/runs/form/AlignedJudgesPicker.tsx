import Link from "next/link";
import type { AlignedJudgeOption } from "./alignedJudgeOption";

/**
 * The dataset's adopted aligned judges, each with what its held-out rows showed; chosen ones run as judges
 * of their own beside the rest (their definitions are read from the store, not from the form).
 */
export function AlignedJudgesPicker({
  judges,
  chosen,
  offline,
  onToggle,
}: {
  judges: AlignedJudgeOption[];
  chosen: ReadonlySet<string>;
  offline: boolean;
  onToggle: (id: string) => void;
}) {
  return (
    <ul className="space-y-1.5" data-testid="aligned-judges">
      {judges.map((judge) => (
        <li key={judge.id} className="text-sm">
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              name="alignedJudges"
              value={judge.id}
              checked={chosen.has(judge.id)}
              onChange={() => onToggle(judge.id)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{judge.name}</span>{" "}
              <span className="text-xs text-slate-500">
                aligned {judge.original} · {judge.proof} ·{" "}
                <Link href={`/alignments/${judge.id}`} className="text-indigo-700 hover:underline">
                  its proof
                </Link>
              </span>
              {offline && chosen.has(judge.id) && (
                <span className="block text-xs text-amber-800">
                  Skipped on the offline judge, which reads no examples: choose a model judge.
                </span>
              )}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}
