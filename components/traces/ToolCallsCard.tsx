import { Card } from "@/components/ui/Card";
import { formatInteger } from "@/lib/charts/format";
import type { AvailableTool, ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import { alignToolCalls, type ToolCallAlignment } from "@/lib/traces/toolCallAlignment";
import { CalledCallEntry, ExpectedCallEntry } from "./ToolCallEntries";

/** Tools offered to the model shown by name before "and N more". */
const TOOLS_SHOWN = 12;
const DESCRIPTION_CHARS = 70;

/**
 * A row's tool calls beside the calls it expects, where a reviewer reads why a tool metric failed: each
 * expected call matched, called with other arguments or missing; each actual call in order, extra when no
 * expected call took it; whether the pairs came in order; where the calls come from, and what tools the
 * model was offered. Shown when the row has either list (null: the row does not carry it).
 */
export function ToolCallsCard({
  called,
  expected,
  source,
  tools,
  note,
}: {
  called: ToolCall[] | null;
  expected: ExpectedToolCall[] | null;
  source: string | null;
  tools: AvailableTool[];
  /** Said above the lists (a run that generated its own response: these calls are the uploaded one's). */
  note?: string;
}) {
  if (called === null && expected === null) return null;
  const alignment = called !== null && expected !== null ? alignToolCalls(called, expected) : null;
  return (
    <Card title="Tool calls" subtitle={sourceText(called, source)} testId="tool-calls">
      <div className="@container space-y-3">
        {note && (
          <p className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-900" data-testid="tool-calls-note">
            {note}
          </p>
        )}
        {alignment && <AlignmentSummary alignment={alignment} />}
        <div className={expected !== null && called !== null ? "grid gap-4 @xl:grid-cols-2" : undefined}>
          {expected !== null && (
            <section aria-labelledby="expected-calls-heading" data-testid="expected-calls">
              <h3 id="expected-calls-heading" className="mb-1.5 text-xs font-semibold text-slate-700">
                Expected ({formatInteger(expected.length)})
              </h3>
              {expected.length === 0 ? (
                <p className="text-sm text-slate-500">The row expects no tool calls.</p>
              ) : (
                <ol className="space-y-1.5">
                  {expected.map((call, index) => {
                    const row = alignment?.expected[index];
                    return (
                      <ExpectedCallEntry
                        key={index}
                        call={call}
                        number={index + 1}
                        status={row?.status ?? null}
                        calledNumber={row?.calledIndex == null ? null : row.calledIndex + 1}
                      />
                    );
                  })}
                </ol>
              )}
            </section>
          )}
          {called !== null && (
            <section aria-labelledby="called-calls-heading" data-testid="called-calls">
              <h3 id="called-calls-heading" className="mb-1.5 text-xs font-semibold text-slate-700">
                Called, in order ({formatInteger(called.length)})
              </h3>
              {called.length === 0 ? (
                <p className="text-sm text-slate-500">The agent called no tool.</p>
              ) : (
                <ol className="space-y-1.5">
                  {called.map((call, index) => {
                    const expectedIndex = alignment?.called[index].expectedIndex ?? null;
                    return (
                      <CalledCallEntry
                        key={index}
                        call={call}
                        number={index + 1}
                        expectedNumber={expectedIndex === null ? null : expectedIndex + 1}
                        extra={alignment !== null && expectedIndex === null}
                      />
                    );
                  })}
                </ol>
              )}
            </section>
          )}
        </div>
        {alignment && <OrderLine alignment={alignment} />}
        {tools.length > 0 && <OfferedTools tools={tools} />}
      </div>
    </Card>
  );
}

function sourceText(called: ToolCall[] | null, source: string | null): string {
  if (called === null) return "No tool calls on this row: no trace with TOOL spans and no tool_calls column.";
  const from = source === "trace" ? "from the trace's TOOL spans" : "from the tool_calls column";
  return `${formatInteger(called.length)} call${called.length === 1 ? "" : "s"} ${from}`;
}

/** "1 of 2 expected calls matched · 1 missing · 1 extra call": the verdict of the lists below, in one line. */
function AlignmentSummary({ alignment }: { alignment: ToolCallAlignment }) {
  const count = (status: string) => alignment.expected.filter((row) => row.status === status).length;
  const extra = alignment.called.filter((row) => row.expectedIndex === null).length;
  const parts = [
    `${formatInteger(count("matched"))} of ${formatInteger(alignment.expected.length)} expected call${alignment.expected.length === 1 ? "" : "s"} matched`,
    ...(count("other_arguments") > 0 ? [`${formatInteger(count("other_arguments"))} with other arguments`] : []),
    ...(count("missing") > 0 ? [`${formatInteger(count("missing"))} missing`] : []),
    ...(extra > 0 ? [`${formatInteger(extra)} extra call${extra === 1 ? "" : "s"}`] : []),
  ];
  return (
    <p className="text-sm text-slate-800" data-testid="tool-call-summary">
      {parts.join(" · ")}
    </p>
  );
}

/** Whether the paired calls came in the expected order; nothing to say with fewer than two pairs. */
function OrderLine({ alignment }: { alignment: ToolCallAlignment }) {
  const pairs = alignment.expected.flatMap((row, index) =>
    row.calledIndex === null ? [] : [{ expected: index + 1, called: row.calledIndex + 1 }],
  );
  if (pairs.length < 2) return null;
  return (
    <p
      className={`rounded px-2 py-1 text-xs ${alignment.inOrder ? "bg-slate-50 text-slate-700" : "bg-amber-50 text-amber-900"}`}
      data-testid="tool-call-order"
      data-in-order={alignment.inOrder ? "true" : "false"}
    >
      {alignment.inOrder
        ? "The paired calls came in the expected order."
        : `The paired calls came in another order than expected: expected ${pairs.map((pair) => pair.expected).join(", ")} were calls ${pairs.map((pair) => pair.called).join(", ")}.`}
    </p>
  );
}

function OfferedTools({ tools }: { tools: AvailableTool[] }) {
  const more = tools.length - TOOLS_SHOWN;
  return (
    <section
      aria-labelledby="offered-tools-heading"
      className="border-t border-slate-100 pt-2"
      data-testid="offered-tools"
    >
      <h3 id="offered-tools-heading" className="text-xs font-semibold text-slate-700">
        Tools offered to the model ({formatInteger(tools.length)})
      </h3>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs">
        {tools.slice(0, TOOLS_SHOWN).map((tool, index) => (
          <li key={index} className="min-w-0" title={tool.description ?? undefined}>
            <code className="font-mono text-slate-900">{tool.name}</code>
            {tool.description && <span className="text-slate-600"> — {shorten(tool.description)}</span>}
          </li>
        ))}
        {more > 0 && <li className="text-slate-500">and {formatInteger(more)} more</li>}
      </ul>
    </section>
  );
}

function shorten(text: string): string {
  return text.length <= DESCRIPTION_CHARS ? text : `${text.slice(0, DESCRIPTION_CHARS - 1)}…`;
}
