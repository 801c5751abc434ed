import { OTHER_RESPONSE_TEXT, type RowLabelMark } from "@/lib/contract/rowLabelMarks";

/**
 * The person's label beside a verdict chip in the rows table: outlined (not
 * filled, so it never reads as a verdict), and amber with "≠" when this run's
 * judge disagrees with it. Screen readers get the same in words (sr-only
 * text, since an aria-label is not allowed on a plain span). A label given on
 * another response than this run judged is greyed and says so: it neither
 * agrees nor disagrees with a verdict on text its labeller never read.
 */
export function LabelMarker({ mark, metric }: { mark: RowLabelMark | undefined; metric: string }) {
  if (!mark) return null;
  const what = mark.chunks === null ? mark.text : `${mark.text} (chunks)`;
  const spoken = `Human label on ${metric}: ${what}${mark.disagrees ? "; the judge disagrees" : ""}${
    mark.otherResponse ? `; ${OTHER_RESPONSE_TEXT}, not compared` : ""
  }`;
  const tone = mark.otherResponse
    ? "border-slate-300 border-dotted text-slate-400"
    : mark.disagrees
      ? "border-amber-500 bg-amber-50 text-amber-900 font-semibold"
      : "border-slate-300 border-dashed text-slate-600";
  return (
    <span
      className={`ml-1 inline-block whitespace-nowrap rounded border px-1 py-0.5 text-[10px] leading-none ${tone}`}
      title={spoken}
      data-testid="label-marker"
      data-disagrees={mark.disagrees ? "true" : "false"}
      data-other-response={mark.otherResponse ? "true" : "false"}
    >
      {mark.disagrees && <span aria-hidden="true">≠ </span>}
      <span aria-hidden="true">
        label: {mark.text}
        {mark.otherResponse && ` (${OTHER_RESPONSE_TEXT})`}
      </span>
      <span className="sr-only" data-testid="label-marker-words">
        {spoken}
      </span>
    </span>
  );
}
