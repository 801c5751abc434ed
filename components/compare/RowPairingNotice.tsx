import { describeRowPairing, pairingLeftRowsOut } from "@/lib/compare/describeRowPairing";
import type { Comparison } from "@/lib/compare/compareRuns";

/** For runs on another dataset than the baseline's: how their rows paired with the baseline's, by request. */
export function RowPairingNotice({ comparison }: { comparison: Comparison }) {
  const pairings = Object.entries(comparison.rowPairings ?? {});
  if (pairings.length === 0) return null;
  const nameOf = (id: string) => comparison.runs.find((run) => run.id === id)?.name ?? id;
  // A caution only when rows were left out; a pairing of every row is information.
  const caution = pairings.some(([, counts]) => pairingLeftRowsOut(counts));
  return (
    <div
      role="note"
      data-testid="row-pairing"
      className={`rounded-md border px-3 py-2 text-sm ${caution ? "border-amber-200 bg-amber-50 text-amber-900" : "border-slate-200 bg-white text-slate-700"}`}
    >
      <p>
        Runs on another dataset than the baseline&apos;s are paired with it row by row on <code>request_id</code>, where
        the request is the same too.
      </p>
      <ul className="mt-1 list-disc pl-5">
        {pairings.map(([id, counts]) => (
          <li key={id}>
            <span className="font-medium">{nameOf(id)}</span>: {describeRowPairing(counts)}
          </li>
        ))}
      </ul>
    </div>
  );
}
