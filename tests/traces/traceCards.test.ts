// The drill-down's trace cards rendered to markup (components/traces): the timeline's layout decisions, text
// shown inert and collapsed, a long trace kept to one row per span, and the tool calls beside the expected.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ToolCallsCard } from "@/components/traces/ToolCallsCard";
import { TrajectoryCard } from "@/components/traces/TrajectoryCard";
import {
  barOf,
  COMPACT_AFTER_SPANS,
  COMPACT_TEXT_LIMIT,
  formatSpanDuration,
  prepareTimeline,
} from "@/components/traces/timelineLayout";
import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import type { Trajectory, TrajectorySpan } from "@/lib/traces/trajectory";

const span = (overrides: Partial<TrajectorySpan>): TrajectorySpan => ({
  id: "s",
  parentId: null,
  depth: 0,
  name: "span",
  type: "TOOL",
  startMs: 0,
  durationMs: 10,
  status: "ok",
  error: null,
  tokens: null,
  inputs: null,
  outputs: null,
  ...overrides,
});

const trajectoryOf = (spans: TrajectorySpan[], totalMs: number | null = 1000): Trajectory => {
  const counts = new Map<string, number>();
  for (const each of spans) counts.set(each.type, (counts.get(each.type) ?? 0) + 1);
  return { spans, totalMs, typeCounts: [...counts].map(([type, count]) => ({ type, count })) };
};

const call = (name: string, args: Record<string, unknown> | null, extra: Partial<ToolCall> = {}): ToolCall => ({
  name,
  arguments: args,
  output: null,
  error: null,
  startMs: null,
  durationMs: null,
  spanId: null,
  ...extra,
});
const want = (name: string, args: Record<string, unknown> | null): ExpectedToolCall => ({
  name,
  arguments: args,
  output: null,
});

describe("the timeline's layout", () => {
  it("places a bar at its start and duration in percent of the trace, never outside the track or invisible", () => {
    expect(barOf({ startMs: 250, durationMs: 500 }, 1000)).toEqual({ leftPercent: 25, widthPercent: 50 });
    expect(barOf({ startMs: 400, durationMs: 0 }, 1000)).toEqual({ leftPercent: 40, widthPercent: 0.5 });
    expect(barOf({ startMs: 1000, durationMs: 0 }, 1000)).toEqual({ leftPercent: 99.5, widthPercent: 0.5 });
    expect(barOf({ startMs: 900, durationMs: 400 }, 1000)).toEqual({ leftPercent: 90, widthPercent: 10 });
    expect(barOf({ startMs: 0, durationMs: 0 }, 0)).toEqual({ leftPercent: 0, widthPercent: 0.5 });
    expect(barOf({ startMs: null, durationMs: 5 }, 1000)).toBeNull();
    expect(barOf({ startMs: 5, durationMs: 5 }, null)).toBeNull();
  });

  it("reads durations as people do", () => {
    expect(formatSpanDuration(null)).toBe("—");
    expect(formatSpanDuration(0)).toBe("0 ms");
    expect(formatSpanDuration(0.2)).toBe("<1 ms");
    expect(formatSpanDuration(850)).toBe("850 ms");
    expect(formatSpanDuration(3000)).toBe("3.00 s");
  });

  it("counts spans by type, failures, and the axis' total and middle", () => {
    const timeline = prepareTimeline(
      trajectoryOf(
        [
          span({ type: "AGENT", durationMs: 3000 }),
          span({ type: "TOOL", depth: 1, status: "error", error: "TimeoutError: slow" }),
          span({ type: "TOOL", depth: 20, tokens: null }),
          span({ type: "CHAT_MODEL", depth: 1, tokens: { input: 1200, output: 20 } }),
        ],
        3000,
      ),
    );
    expect(timeline.spanCounts).toBe("4 spans (AGENT 1, TOOL 2, CHAT_MODEL 1)");
    expect(timeline).toMatchObject({ errorCount: 1, total: "3.00 s", midpoint: "1.50 s", compact: false });
    expect(timeline.lines.map((line) => [line.indent, line.deepLabel, line.tokens])).toEqual([
      [0, null, null],
      [1, null, null],
      [12, "depth 20", null],
      [1, null, "1,200 in · 20 out"],
    ]);
  });
});

describe("TrajectoryCard", () => {
  const html = (trajectory: Trajectory) => renderToStaticMarkup(createElement(TrajectoryCard, { trajectory }));

  it("draws each span as a line with its bar, and its inputs and outputs collapsed and escaped", () => {
    const markup = html(
      trajectoryOf([
        span({ name: "agent", type: "AGENT", durationMs: 1000 }),
        span({
          name: "search",
          depth: 1,
          startMs: 250,
          durationMs: 500,
          inputs: '{"q": "<script>alert(1)</script>"}',
          outputs: "<img src=x onerror=alert(2)>",
        }),
      ]),
    );
    expect(markup.match(/data-testid="span"/g)).toHaveLength(2);
    expect(markup).toContain("left:25%;width:50%");
    // Collapsed: no open attribute on any details.
    expect(markup).toContain("<details");
    expect(markup).not.toMatch(/<details[^>]*\sopen/);
    expect(markup).not.toContain("<script>");
    expect(markup).not.toContain("<img");
    expect(markup).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(markup).toContain("&lt;img src=x onerror=alert(2)&gt;");
    // A span with no texts has nothing to open.
    expect(markup.match(/<details/g)).toHaveLength(1);
  });

  it("marks a failed span red with its error text", () => {
    const markup = html(trajectoryOf([span({ status: "error", error: "TimeoutError: search timed out" })]));
    expect(markup).toContain('data-status="error"');
    expect(markup).toMatch(/data-testid="span-error"[^>]*>TimeoutError: search timed out</);
    expect(markup).toContain("bg-red-500");
    expect(markup).toContain("1 failed span");
  });

  it(`keeps every span of a trace past ${COMPACT_AFTER_SPANS} spans, one compact row each, its texts cut shorter`, () => {
    const count = COMPACT_AFTER_SPANS + 50;
    const spans = Array.from({ length: count }, (_, i) =>
      span({
        name: `step ${i}`,
        depth: i === 0 ? 0 : 1,
        startMs: i,
        durationMs: 1,
        inputs: "x".repeat(COMPACT_TEXT_LIMIT + 10),
        ...(i === 7 ? { status: "error" as const, error: "ValueError: bad step" } : {}),
      }),
    );
    const markup = html(trajectoryOf(spans, count));
    expect(markup.match(/data-testid="span"/g)).toHaveLength(count);
    expect(markup).toContain(`step ${count - 1}`);
    expect(markup).not.toContain("x".repeat(COMPACT_TEXT_LIMIT + 1));
    expect(markup).toContain("10 more characters not shown in a trace this long");
    // The error sits on the line itself, cut to one row, its whole text in the title.
    expect(markup).toMatch(/title="ValueError: bad step" data-testid="span-error"/);
  });
});

describe("ToolCallsCard", () => {
  const html = (props: Parameters<typeof ToolCallsCard>[0]) =>
    renderToStaticMarkup(createElement(ToolCallsCard, props));

  it("shows expected calls with their status beside the numbered actual calls, extra ones marked", () => {
    const markup = html({
      called: [
        call("fetch", { url: "u" }, { durationMs: 600, output: "<html>page</html>" }),
        call("search", { q: "b" }, { error: "TimeoutError: search timed out" }),
      ],
      expected: [want("search", { q: "a" }), want("rank", null)],
      source: "trace",
      tools: [{ name: "search", description: "Search the docs", parameters: {} }],
    });
    expect(markup).toContain("2 calls from the trace&#x27;s TOOL spans");
    expect(markup).toContain("0 of 2 expected calls matched · 1 with other arguments · 1 missing · 1 extra call");
    expect(markup.match(/data-testid="expected-call" data-status="(\w+)"/g)).toEqual([
      'data-testid="expected-call" data-status="other_arguments"',
      'data-testid="expected-call" data-status="missing"',
    ]);
    expect(markup).toContain('data-extra="true"');
    expect(markup).toContain("{&quot;q&quot;:&quot;b&quot;}");
    expect(markup).toContain("600 ms");
    expect(markup).toContain("TimeoutError: search timed out");
    expect(markup).toContain("&lt;html&gt;page&lt;/html&gt;");
    expect(markup).toContain("any arguments");
    expect(markup).toContain("Tools offered to the model (1)");
    // One pair: nothing to say about order.
    expect(markup).not.toContain("tool-call-order");
  });

  it("says when the paired calls came out of order", () => {
    const markup = html({
      called: [call("search", { q: "a" }), call("search", { q: "a" }), call("fetch", { url: "u" })],
      expected: [want("search", { q: "a" }), want("fetch", { url: "u" }), want("search", { q: "a" })],
      source: "column",
      tools: [],
    });
    expect(markup).toContain("from the tool_calls column");
    expect(markup).toContain("expected 1, 2, 3 were calls 1, 3, 2");
    expect(markup).not.toContain("Tools offered");
  });

  it("collapses long arguments behind their first characters", () => {
    const markup = html({
      called: [call("search", { q: "y".repeat(200) })],
      expected: null,
      source: "column",
      tools: [],
    });
    expect(markup).toMatch(/<summary[^>]*>\{&quot;q&quot;:&quot;y+…<\/summary>/);
    // Called but nothing expected: the numbered list alone, no statuses.
    expect(markup).not.toContain("expected-calls");
    expect(markup).not.toContain("extra");
  });

  it("is not shown for a row without calls or expected calls, and says a row with only expected calls has none", () => {
    expect(html({ called: null, expected: null, source: null, tools: [] })).toBe("");
    const markup = html({ called: null, expected: [want("search", { q: "a" })], source: null, tools: [] });
    expect(markup).toContain("No tool calls on this row");
    expect(markup).not.toContain("data-status=");
  });
});
