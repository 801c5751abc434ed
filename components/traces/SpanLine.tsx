import { PlainTextBlock } from "./PlainTextBlock";
import { spanTypeStyle } from "./spanTypeStyle";
import type { TimelineLine } from "./timelineLayout";

/** The line's columns: the span (indented), its bar on the time axis, its duration. Shared with the axis row. */
export const TIMELINE_COLUMNS =
  "grid grid-cols-[minmax(0,1fr)_minmax(5rem,1fr)_4rem] items-center gap-x-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_4.5rem]";
/** One indentation step. */
const INDENT_REM = 0.875;

/**
 * One span of the trajectory as one line; with inputs or outputs, the line is the summary of a native
 * `<details>` that opens onto them (no client script), collapsed until a reviewer asks. An error span is
 * red, with its error under the line (on the line itself, cut short, in a compact trajectory).
 */
export function SpanLine({ line, compact }: { line: TimelineLine; compact: boolean }) {
  const { span } = line;
  const failed = span.status === "error";
  const opens = line.inputs !== null || line.outputs !== null;
  const row = <SpanRow line={line} compact={compact} opens={opens} />;
  return (
    <li
      className={failed ? "bg-red-50" : undefined}
      data-testid="span"
      data-span-type={span.type}
      data-status={span.status}
    >
      {opens ? (
        <details className="group">
          <summary className="cursor-pointer list-none rounded hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
            {row}
          </summary>
          <div
            className="space-y-2 pb-2 pl-2 pr-2 pt-1"
            style={{ marginLeft: `${line.indent * INDENT_REM + 1}rem` }}
            data-testid="span-texts"
          >
            {line.inputs !== null && <PlainTextBlock label="Inputs" text={line.inputs} />}
            {line.outputs !== null && <PlainTextBlock label="Outputs" text={line.outputs} />}
          </div>
        </details>
      ) : (
        row
      )}
    </li>
  );
}

function SpanRow({ line, compact, opens }: { line: TimelineLine; compact: boolean; opens: boolean }) {
  const { span, bar } = line;
  const failed = span.status === "error";
  const style = spanTypeStyle(span.type);
  return (
    <div className={`${TIMELINE_COLUMNS} px-1 ${compact ? "py-px" : "py-0.5"}`}>
      <div className="flex min-w-0 items-center gap-1.5" style={{ paddingLeft: `${line.indent * INDENT_REM}rem` }}>
        <span
          aria-hidden="true"
          className={`w-2.5 shrink-0 text-[10px] text-slate-500 transition-transform group-open:rotate-90 ${opens ? "" : "invisible"}`}
        >
          ▶
        </span>
        <span
          className={`shrink-0 rounded px-1 py-px font-mono text-[10px] font-medium leading-tight ${style.badge}`}
          data-testid="span-type"
        >
          {span.type}
        </span>
        <span
          className={`truncate text-xs font-medium ${failed ? "text-red-800" : "text-slate-800"}`}
          title={span.name}
          data-testid="span-name"
        >
          {span.name}
        </span>
        {line.deepLabel && <span className="shrink-0 text-[11px] text-slate-600">{line.deepLabel}</span>}
        {line.tokens && (
          <span
            className="hidden shrink-0 text-[11px] tabular-nums text-slate-600 sm:inline"
            title="tokens in and out"
            data-testid="span-tokens"
          >
            {line.tokens} tokens
          </span>
        )}
        {failed && compact && (
          <span className="truncate text-[11px] text-red-700" title={span.error ?? undefined} data-testid="span-error">
            {span.error}
          </span>
        )}
      </div>
      <div className="relative h-2.5 rounded-sm bg-slate-100">
        {bar && (
          <div
            className={`absolute inset-y-0 rounded-sm ${failed ? "bg-red-500" : style.bar}`}
            style={{ left: `${bar.leftPercent}%`, width: `${bar.widthPercent}%` }}
            data-testid="span-bar"
          />
        )}
      </div>
      <span className={`text-right text-xs tabular-nums ${failed ? "text-red-800" : "text-slate-600"}`}>
        {line.duration}
      </span>
      {failed && !compact && (
        // Across the whole line, under the span's name: an error is read, not squeezed beside the bar.
        <p
          className="col-span-3 whitespace-pre-wrap break-words text-[11px] text-red-700"
          style={{ paddingLeft: `${line.indent * INDENT_REM + 1}rem` }}
          data-testid="span-error"
        >
          {span.error}
        </p>
      )}
    </div>
  );
}
