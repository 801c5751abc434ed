import type { VerdictDetails as Details } from "@/lib/contract/judgeResult";
import { formatInteger, formatScore } from "@/lib/charts/format";

/** Verdict words the judges use, by how well they speak for the row (the colour of the chip). */
const GOOD = new Set(["yes", "high", "relevant", "used", "aligned", "attributable"]);
const FAIR = new Set(["medium", "low", "idk"]);
const POOR = new Set(["no", "none", "missing"]);
const CHIP = {
  good: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  fair: "bg-amber-50 text-amber-900 ring-amber-200",
  poor: "bg-rose-50 text-rose-800 ring-rose-200",
  // Not a verdict (G-Eval's "step 2"): no colour that would read as a judgement.
  plain: "bg-slate-50 text-slate-700 ring-slate-200",
} as const;

/** Figures that are scores, penalties or proportions (two decimals); the other whole-number figures are counts. */
const SCORE_FIGURE = /score|penalty|precision|recall|f1|alignment|coverage|base|scale|similarity/i;

/** Figure names as people read them; unknown ones are shown as stored. */
const FIGURE_LABELS: Record<string, string> = {
  alignment: "alignment",
  coverage: "coverage",
  base: "base score",
  base_score: "base score",
  usage_penalty: "usage penalty",
  missing_penalty: "missing penalty",
  raw_score: "G-Eval raw score",
  weighted_score: "G-Eval probability-weighted score",
  range_low: "scale from",
  range_high: "scale to",
  score_before_strict_mode: "score before strict mode",
};

/**
 * A score's intermediate verdicts (DeepEval, Mastra), as stored in JudgmentItem.details: each claim,
 * statement, node, opinion or context piece with its verdict, reason and tags (rank, used or not), the
 * missing information, and the figures behind the score. The texts come from uploaded content through the
 * judge, so they are rendered as plain text, never as markup.
 */
export function VerdictDetails({ details, metric }: { details: Details; metric: string }) {
  // Toxicity and bias ask "is this opinion toxic (biased)?": there "yes" is the bad answer.
  const flagged = FLAGGING_METRICS[metric];
  const figures = Object.entries(details.figures ?? {});
  const groups = details.groups.filter((group) => group.items.length > 0);
  const notes = details.notes ?? [];
  if (groups.length === 0 && figures.length === 0 && notes.length === 0) return null;
  return (
    <div className="mt-2 space-y-2" data-testid="verdict-details">
      {notes.map((note) => (
        <p
          key={note}
          className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-900 ring-1 ring-amber-200"
          data-testid="verdict-note"
        >
          {note}
        </p>
      ))}
      {groups.map((group) => (
        <section key={group.title} aria-label={group.title} data-testid="verdict-group">
          {/* Not a heading: the panel sits at different heading depths on the row and compare-row pages; the section is labelled. */}
          <p className="text-xs font-semibold text-slate-700">
            {group.title} <span className="font-normal text-slate-500">({group.items.length})</span>
          </p>
          <ol className="mt-1 space-y-1">
            {group.items.map((item, index) => (
              <li key={index} className="flex gap-2 text-sm" data-testid="verdict-item" data-verdict={item.verdict}>
                <span
                  className={`h-fit shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium ring-1 ${CHIP[tone(item.verdict, Boolean(flagged))]}`}
                >
                  {flagged ? `${item.verdict}: ${item.verdict === "yes" ? flagged : `not ${flagged}`}` : item.verdict}
                </span>
                <div className="min-w-0">
                  <p className="whitespace-pre-wrap break-words text-slate-800">{item.text}</p>
                  {item.reason && <p className="whitespace-pre-wrap text-xs text-slate-600">{item.reason}</p>}
                  {item.tags && item.tags.length > 0 && (
                    <p className="flex flex-wrap gap-1 text-[11px] text-slate-600">
                      {item.tags.map((tag) => (
                        <span key={tag} className="rounded bg-slate-100 px-1">
                          {tag}
                        </span>
                      ))}
                    </p>
                  )}
                </div>
              </li>
            ))}
          </ol>
        </section>
      ))}
      {figures.length > 0 && (
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" data-testid="verdict-figures">
          {figures.map(([name, value]) => (
            <div key={name} className="flex gap-1">
              <dt className="text-slate-600">{FIGURE_LABELS[name] ?? name.replaceAll("_", " ")}</dt>
              <dd className="font-medium tabular-nums">
                {value === null
                  ? "—"
                  : Number.isInteger(value) && !SCORE_FIGURE.test(name)
                    ? formatInteger(value)
                    : formatScore(value)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

const FLAGGING_METRICS: Record<string, string> = {
  "response/llm_judged/toxicity": "toxic",
  "response/llm_judged/bias": "biased",
};

function tone(verdict: string, yesIsBad: boolean): keyof typeof CHIP {
  const word = verdict.toLowerCase();
  if (yesIsBad) return word === "yes" ? "poor" : word === "no" ? "good" : "fair";
  if (GOOD.has(word)) return "good";
  if (FAIR.has(word)) return "fair";
  return POOR.has(word) ? "poor" : "plain";
}
