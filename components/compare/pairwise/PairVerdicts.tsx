import { pairVerdict, type PairWinner } from "@/lib/contract/pairwise";
import type { StoredPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import type { PairVerdictRow } from "@/lib/db/pairwise/pairwiseVerdicts";
import type { StoredPreference } from "@/lib/db/pairwise/pairwisePreferences";

const WINNER_WORDS: Record<PairWinner, string> = { a: "A better", b: "B better", tie: "tie" };
const WINNER_TONE: Record<PairWinner, string> = {
  a: "bg-rose-100 text-rose-900",
  b: "bg-emerald-100 text-emerald-900",
  tie: "bg-slate-100 text-slate-800",
};

/**
 * The pairwise judge's verdict on this pair, per criterion: the pair's verdict (MT-Bench's rule over the two
 * orders), then each order with what was shown first and the judge's rationale, so a reviewer sees whether the
 * order changed its mind. Beside it, the verdicts people gave on these two responses.
 */
export function PairVerdicts({
  comparison,
  verdicts,
  preferences,
  names,
}: {
  comparison: StoredPairwiseComparison | null;
  verdicts: PairVerdictRow[];
  preferences: StoredPreference[];
  names: ReadonlyMap<string, string>;
}) {
  const criteria = comparison?.criteria ?? [];
  return (
    <div className="space-y-3" data-testid="pair-verdicts">
      {comparison === null && (
        <p className="text-xs text-slate-500">
          No pairwise judgment of these two runs yet: start one on the compare page.
        </p>
      )}
      {criteria.map((criterion) => {
        const own = verdicts.filter((v) => v.criterion === criterion.name);
        const ab = own.find((v) => v.shownOrder === "ab");
        const ba = own.find((v) => v.shownOrder === "ba");
        const done = own.filter((v) => v.status === "done" && v.winner);
        const combined =
          done.length === own.length && done.length > 0
            ? pairVerdict(done[0].winner as PairWinner, done[1]?.winner ?? undefined)
            : null;
        return (
          <div key={criterion.name} className="space-y-1" data-testid={`pair-verdict-${criterion.name}`}>
            <p className="text-sm">
              <code className="font-mono text-xs">pairwise/{criterion.name}</code>:{" "}
              {combined ? (
                <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${WINNER_TONE[combined.winner]}`}>
                  {WINNER_WORDS[combined.winner]}
                  {combined.positionDependent && " (position-dependent: the orders disagreed)"}
                </span>
              ) : (
                <span className="text-xs text-slate-500">
                  {own.length === 0 ? "not judged (row not paired)" : "not decided yet"}
                </span>
              )}
            </p>
            <ul className="grid gap-2 md:grid-cols-2">
              {[ab, ba]
                .filter((v) => v !== undefined)
                .map((v) => (
                  <li key={v.shownOrder} className="rounded border border-slate-200 p-2 text-xs">
                    <p className="font-medium text-slate-700">
                      {v.shownOrder === "ab" ? "A shown first" : "B shown first"}:{" "}
                      {v.status === "done" && v.winner ? (
                        <span className={`rounded px-1 ${WINNER_TONE[v.winner]}`}>{WINNER_WORDS[v.winner]}</span>
                      ) : (
                        <span className="text-slate-500">
                          {v.status === "pending" ? "pending" : (v.errorMessage ?? v.status)}
                        </span>
                      )}
                    </p>
                    {v.rationale && <p className="mt-1 whitespace-pre-wrap text-slate-600">{v.rationale}</p>}
                  </li>
                ))}
            </ul>
          </div>
        );
      })}
      {preferences.length > 0 && (
        <p className="text-xs text-slate-600" data-testid="people-verdicts">
          People&apos;s verdicts on these two responses:{" "}
          {preferences.map((p, i) => (
            <span key={`${p.labelledBy}-${i}`}>
              {i > 0 && ", "}
              {names.get(p.labelledBy) ?? (p.labelledBy === "local" ? "Local admin" : "a removed user")}:{" "}
              <strong>{WINNER_WORDS[p.choice]}</strong>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
