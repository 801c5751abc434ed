import { SPAN_TEXT_LIMIT } from "@/lib/traces/trajectory";

/** Arguments longer than this (as compact JSON) are collapsed behind their first characters. */
export const LONG_ARGUMENTS_CHARS = 80;

/** A call's arguments as one line of compact JSON, and indented in full when that line is too long to read. */
export function argumentsText(args: Record<string, unknown> | null): { line: string; full: string | null } | null {
  if (args === null) return null;
  const line = JSON.stringify(args);
  if (line.length <= LONG_ARGUMENTS_CHARS) return { line, full: null };
  return { line: `${line.slice(0, LONG_ARGUMENTS_CHARS - 1)}…`, full: valueText(args) };
}

/** What a tool returned, as text: a string as it is, anything else as indented JSON, cut as span texts are. */
export function valueText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  if (text.length <= SPAN_TEXT_LIMIT) return text;
  return `${text.slice(0, SPAN_TEXT_LIMIT)}\n… (${(text.length - SPAN_TEXT_LIMIT).toLocaleString("en-US")} more characters)`;
}
