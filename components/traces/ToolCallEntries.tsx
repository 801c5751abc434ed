import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import type { ExpectedCallStatus } from "@/lib/traces/toolCallAlignment";
import { argumentsText, valueText } from "./callText";
import { PlainTextBlock } from "./PlainTextBlock";
import { formatSpanDuration } from "./timelineLayout";

const STATUS: Record<ExpectedCallStatus, { text: string; chip: string }> = {
  matched: { text: "matched", chip: "bg-emerald-100 text-emerald-800" },
  other_arguments: { text: "other arguments", chip: "bg-amber-100 text-amber-900" },
  missing: { text: "missing", chip: "bg-rose-100 text-rose-800" },
};
const CHIP = "shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium";

/** One expected call: its status against the actual calls (when there are any), name and arguments. */
export function ExpectedCallEntry({
  call,
  number,
  status,
  calledNumber,
}: {
  call: ExpectedToolCall;
  number: number;
  status: ExpectedCallStatus | null;
  calledNumber: number | null;
}) {
  return (
    <li className="rounded-md border border-slate-200 px-2.5 py-1.5" data-testid="expected-call" data-status={status}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-[11px] text-slate-500">{number}.</span>
        <code className="font-mono text-sm font-medium text-slate-900" data-testid="call-name">
          {call.name}
        </code>
        {status && <span className={`${CHIP} ${STATUS[status].chip}`}>{STATUS[status].text}</span>}
        {calledNumber !== null && <span className="text-xs text-slate-500">call {calledNumber}</span>}
      </div>
      <Arguments args={call.arguments} none="any arguments" />
    </li>
  );
}

/** One actual call, numbered in the order made: name, arguments, duration, error, output; "extra" when unpaired. */
export function CalledCallEntry({
  call,
  number,
  expectedNumber,
  extra,
}: {
  call: ToolCall;
  number: number;
  expectedNumber: number | null;
  extra: boolean;
}) {
  const output = valueText(call.output);
  return (
    <li
      className={`rounded-md border px-2.5 py-1.5 ${call.error ? "border-red-200 bg-red-50" : "border-slate-200"}`}
      data-testid="called-call"
      data-extra={extra ? "true" : undefined}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded bg-slate-800 px-1.5 py-0.5 font-mono text-[11px] text-white">#{number}</span>
        <code className="font-mono text-sm font-medium text-slate-900" data-testid="call-name">
          {call.name}
        </code>
        {extra && <span className={`${CHIP} bg-slate-200 text-slate-800`}>extra</span>}
        {expectedNumber !== null && <span className="text-xs text-slate-600">expected {expectedNumber}</span>}
        {call.durationMs !== null && (
          <span className="ml-auto text-xs tabular-nums text-slate-600">{formatSpanDuration(call.durationMs)}</span>
        )}
      </div>
      <Arguments args={call.arguments} none="no arguments" />
      {call.error && (
        <p className="mt-1 whitespace-pre-wrap break-words text-xs font-medium text-red-700" data-testid="call-error">
          {call.error}
        </p>
      )}
      {output !== null && (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer text-slate-600">output</summary>
          <div className="mt-1">
            <PlainTextBlock label="Output" text={output} />
          </div>
        </details>
      )}
    </li>
  );
}

/** Compact JSON on one line; long arguments behind their first characters, in full when opened. */
function Arguments({ args, none }: { args: Record<string, unknown> | null; none: string }) {
  const text = argumentsText(args);
  if (text === null) return <p className="mt-0.5 text-xs italic text-slate-600">{none}</p>;
  if (text.full === null)
    return (
      <code className="mt-0.5 block break-all font-mono text-xs text-slate-700" data-testid="call-arguments">
        {text.line}
      </code>
    );
  return (
    <details className="mt-0.5 text-xs" data-testid="call-arguments">
      <summary className="cursor-pointer break-all font-mono text-slate-700">{text.line}</summary>
      <div className="mt-1">
        <PlainTextBlock label="Arguments" text={text.full} />
      </div>
    </details>
  );
}
