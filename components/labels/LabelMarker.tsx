import type { RowLabelMark } from "@/lib/labels/rowLabelMarks";

/**
 * The person's label beside a verdict chip in the rows table: outlined (not
 * filled, so it never reads as a verdict), and amber with "≠" when this run's
 * judge disagrees with it. Screen readers get the same in words (sr-only
 * text, since an aria-label is not allowed on a plain span).
 */
export function LabelMarker({ mark, metric }: { mark: RowLabelMark | undefined; metric: string }) {
  if (!mark) return null;
  const what = mark.chunks === null ? mark.text : `${mark.text} (chunks)`;
  const spoken = `Human label on ${metric}: ${what}${mark.disagrees ? "; the judge disagrees" : ""}`;
  const tone = mark.disagrees
    ? "border-amber-500 bg-amber-50 text-amber-900 font-semibold"
    : "border-slate-300 border-dashed text-slate-600";
  return (
    <span
      className={`ml-1 inline-block whitespace-nowrap rounded border px-1 py-0.5 text-[10px] leading-none ${tone}`}
      title={spoken}
      data-testid="label-marker"
      data-disagrees={mark.disagrees ? "true" : "false"}
    >
      {mark.disagrees && <span aria-hidden="true">≠ </span>}
      <span aria-hidden="true">label: {mark.text}</span>
      <span className="sr-only" data-testid="label-marker-words">
        {spoken}
      </span>
    </span>
  );
}
