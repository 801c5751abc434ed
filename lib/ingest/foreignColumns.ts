import type { RowIssue } from "./errors";
import type { IngestLimits } from "./limits";
import { describeType } from "./normalizeRequest";
import type { RawRecord } from "./readers/rawRecord";
import { AGENT_EVALUATION_COLUMNS, type InputColumn } from "./types";
import { validateRecord, type ValidationState } from "./validateRecord";

/**
 * Datasets written for DeepEval (test cases / goldens) and Ragas (v0.1 and
 * v0.2+ column names) use their own column names for what the Agent
 * Evaluation input schema calls request, response and so on. A file is read
 * that way only when its columns (a CSV's header, otherwise the first
 * record's keys) say so unambiguously: no `request` column, the format's
 * question column present, and no Agent Evaluation column the format does
 * not itself use. Every later record is read the same way, errors name the
 * user's own columns, and the upload says in one notice how it read them.
 */

/** "value": the cell is taken as is. "chunks": an array of strings becomes chunks `{content, doc_uri}`. */
type Kind = "value" | "chunks";

/** Several sources for one target: "either" means both present is ambiguous (no mapping); "firstWins" keeps the first. */
type Rule = { target: InputColumn; sources: readonly string[]; kind: Kind; onSeveral: "either" | "firstWins" };

type ForeignFormat = { name: "DeepEval" | "Ragas"; rules: readonly Rule[] };

// Retrieved context comes before the expected one: an ideal chunk reuses the doc_uri of a retrieved chunk with the same text.
const FORMATS: readonly ForeignFormat[] = [
  {
    name: "DeepEval",
    rules: [
      { target: "request", sources: ["input"], kind: "value", onSeveral: "either" },
      { target: "response", sources: ["actual_output"], kind: "value", onSeveral: "either" },
      { target: "expected_response", sources: ["expected_output"], kind: "value", onSeveral: "either" },
      { target: "retrieved_context", sources: ["retrieval_context"], kind: "chunks", onSeveral: "either" },
      { target: "expected_retrieved_context", sources: ["context"], kind: "chunks", onSeveral: "either" },
      { target: "request_id", sources: ["id", "name"], kind: "value", onSeveral: "firstWins" },
    ],
  },
  {
    name: "Ragas",
    rules: [
      { target: "request", sources: ["question", "user_input"], kind: "value", onSeveral: "either" },
      { target: "response", sources: ["answer", "response"], kind: "value", onSeveral: "either" },
      { target: "retrieved_context", sources: ["contexts", "retrieved_contexts"], kind: "chunks", onSeveral: "either" },
      { target: "expected_response", sources: ["ground_truth", "reference"], kind: "value", onSeveral: "either" },
      // The schema allows one of expected_response and expected_facts: ground_truths is read only without ground_truth/reference.
      { target: "expected_facts", sources: ["ground_truths"], kind: "value", onSeveral: "either" },
      { target: "expected_retrieved_context", sources: ["reference_contexts"], kind: "chunks", onSeveral: "either" },
    ],
  },
];

/** `inFirstRecord` false: read because the format has that column, though the first record left it out. */
export type ColumnMapping = { source: string; target: InputColumn; kind: Kind; inFirstRecord?: false };

/** How a file's foreign columns are read, decided once from its columns. */
export type ForeignReading = { format: ForeignFormat["name"]; label: string; mappings: ColumnMapping[] };

const AGENT_COLUMNS = new Set<string>(AGENT_EVALUATION_COLUMNS);

/**
 * The reading for a file with these columns, or null when it is not (unambiguously) DeepEval or Ragas.
 * `complete`: the columns are one JSON record's keys, not a header, so the format's other columns (of the
 * same Ragas generation) are read too when a later record has them: an optional column the first record
 * leaves out is not dropped for the whole file.
 */
export function detectForeignColumns(
  columns: readonly string[],
  options: { complete: boolean } = { complete: false },
): ForeignReading | null {
  const present = new Set(columns);
  if (present.has("request")) return null;
  const readings = FORMATS.map((format) => readingFor(format, present, options.complete)).filter(
    (reading) => reading !== null,
  );
  return readings.length === 1 ? readings[0] : null;
}

/** Ragas's v0.1 column names; the others are v0.2+. A file uses one generation. */
const RAGAS_V01 = new Set(["question", "answer", "contexts", "ground_truth", "ground_truths"]);

/** The column a rule reads in a file whose question column is `requestSource`. */
function sourceOfGeneration(format: ForeignFormat, rule: Rule, requestSource: string): string | undefined {
  if (format.name !== "Ragas") return rule.sources[0];
  const v01 = RAGAS_V01.has(requestSource);
  return rule.sources.find((source) => RAGAS_V01.has(source) === v01);
}

function readingFor(format: ForeignFormat, present: Set<string>, complete: boolean): ForeignReading | null {
  const mappings: ColumnMapping[] = [];
  for (const rule of format.rules) {
    const found = rule.sources.filter((source) => present.has(source));
    if (found.length > 1 && rule.onSeveral === "either") return null;
    if (found.length === 0) continue;
    if (rule.target === "expected_facts" && mappings.some((mapping) => mapping.target === "expected_response"))
      continue;
    mappings.push({ source: found[0], target: rule.target, kind: rule.kind });
  }
  if (!mappings.some((mapping) => mapping.target === "request")) return null;
  // An Agent Evaluation column the format does not use itself (Ragas's `response` it does) makes the file mixed.
  const sources = new Set(mappings.map((mapping) => mapping.source));
  for (const column of present) if (AGENT_COLUMNS.has(column) && !sources.has(column)) return null;
  const requestSource = mappings[0].source;
  if (complete) {
    const hadExpectedResponse = mappings.some((mapping) => mapping.target === "expected_response");
    for (const rule of format.rules) {
      if (mappings.some((mapping) => mapping.target === rule.target)) continue;
      if (rule.target === "expected_facts" && hadExpectedResponse) continue;
      const source = sourceOfGeneration(format, rule, requestSource);
      if (source !== undefined) mappings.push({ source, target: rule.target, kind: rule.kind, inFirstRecord: false });
    }
    // In the rules' order: retrieved context before the expected one (whose chunks may reuse its doc_uris).
    const order = format.rules.map((rule) => rule.target);
    mappings.sort((a, b) => order.indexOf(a.target) - order.indexOf(b.target));
  }
  const label =
    format.name === "DeepEval"
      ? "DeepEval test cases"
      : `Ragas samples (${requestSource === "question" ? "v0.1" : "v0.2+"} column names)`;
  return { format: format.name, label, mappings };
}

/** The columns that decide: a CSV's header, or a JSON record's keys (anything but an object has none). */
export function recordColumns(record: Exclude<RawRecord, { issue: RowIssue }>): string[] {
  if (record.format === "csv") return [...record.columns];
  const value = record.value;
  return value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
}

/** The one notice an upload read this way carries: the format and each column it mapped. */
export function describeForeignReading(reading: ForeignReading): string {
  const named = reading.mappings.filter((mapping) => mapping.inFirstRecord !== false);
  const others =
    reading.mappings.length > named.length ? " (and the format's other columns where a record has them)" : "";
  const pairs = named.map((mapping) => `${mapping.source} → ${mapping.target}`).join(", ") + others;
  const chunked = named.filter((mapping) => mapping.kind === "chunks");
  if (chunked.length === 0) return `Read as ${reading.label}: ${pairs}.`;
  const retrieved = chunked.find((mapping) => mapping.target === "retrieved_context");
  const expected = chunked.find((mapping) => mapping.target === "expected_retrieved_context");
  const uris = chunked.map((mapping) => `"${mapping.source}[i]"`).join(" and ");
  const shared =
    retrieved && expected
      ? ` (a ${expected.source} passage with the same text as a retrieved one takes its doc_uri, so document recall counts passages retrieved word for word)`
      : "";
  return `Read as ${reading.label}: ${pairs}. Each passage became a chunk with doc_uri ${uris}${shared}.`;
}

/**
 * Validates one record of a file read as DeepEval or Ragas: maps its columns,
 * validates the result as the Agent Evaluation input schema, and words every
 * issue with the user's column name.
 */
export function validateForeignRecord(
  reading: ForeignReading,
  record: Exclude<RawRecord, { issue: RowIssue }>,
  state: ValidationState,
  limits: IngestLimits,
): ReturnType<typeof validateRecord> {
  const value = record.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return validateRecord(record, state, limits);
  const mapped = mapRecord(reading, value as Record<string, unknown>, record.format === "csv");
  const issues = mapped.issues.map((issue) => ({ row: record.row, line: record.line, ...issue }));
  const result = validateRecord(
    { row: record.row, line: record.line, format: record.format, value: mapped.value },
    state,
    limits,
  );
  // A row the mapping rejected does not hold its request_id: a later row may use it.
  if (issues.length > 0 && result.row) state.requestIds.delete(result.row.requestId);
  const all = [...issues, ...result.issues.map((issue) => inUserColumns(reading, issue))];
  return { row: all.length > 0 ? null : result.row, issues: all };
}

type CellIssue = { column: string; message: string };

function mapRecord(
  reading: ForeignReading,
  value: Record<string, unknown>,
  csv: boolean,
): { value: Record<string, unknown>; issues: CellIssue[] } {
  const issues: CellIssue[] = [];
  const sources = new Set(reading.mappings.map((mapping) => mapping.source));
  const out: Record<string, unknown> = {};
  for (const [key, cell] of Object.entries(value)) {
    if (sources.has(key)) continue;
    // Unknown columns pass through to the usual bounded warning; an Agent Evaluation column here would be read as something else.
    if (AGENT_COLUMNS.has(key)) {
      issues.push({
        column: key,
        message: `this file is read as ${reading.label} (decided from its first record), which have no ${key} column; use one column set per file`,
      });
      continue;
    }
    out[key] = cell;
  }
  let retrievedChunks: { content: string; doc_uri: string }[] = [];
  for (const mapping of reading.mappings) {
    const cell = value[mapping.source];
    if (cell === undefined || cell === null || cell === "") continue;
    if (mapping.kind === "value") {
      out[mapping.target] = cell;
      continue;
    }
    const passages = readPassages(mapping.source, cell, csv);
    if ("error" in passages) {
      issues.push({ column: mapping.source, message: passages.error });
      continue;
    }
    const chunks = passages.texts.map((content, index) => ({
      content,
      doc_uri:
        (mapping.target === "expected_retrieved_context"
          ? retrievedChunks.find((chunk) => chunk.content === content)?.doc_uri
          : undefined) ?? `${mapping.source}[${index}]`,
    }));
    if (mapping.target === "retrieved_context") retrievedChunks = chunks;
    // A CSV row stays a CSV row (its other cells are decoded as Assay's own CSV is), so the chunks go back as JSON text.
    out[mapping.target] = csv ? JSON.stringify(chunks) : chunks;
  }
  return { value: out, issues };
}

/** DeepEval and Ragas keep passages as an array of strings; in a CSV cell, as JSON text. */
function readPassages(source: string, cell: unknown, csv: boolean): { texts: string[] } | { error: string } {
  let value = cell;
  if (csv && typeof cell === "string") {
    const trimmed = cell.trim();
    if (!trimmed.startsWith("["))
      return { error: 'expected a JSON array of strings in this cell, e.g. ["first", "second"]' };
    try {
      value = JSON.parse(trimmed);
    } catch {
      // pandas's to_csv writes a Python list, ['a', 'b'], which is not JSON.
      return {
        error: /^\[\s*'/.test(trimmed)
          ? 'the cell is a Python list (single quotes, as pandas writes one); write it as a JSON array with double quotes, e.g. ["first", "second"]'
          : "the cell looks like JSON but does not parse",
      };
    }
  }
  if (!Array.isArray(value)) return { error: `expected an array of strings, got ${describeType(value)}` };
  const texts: string[] = [];
  for (const [index, item] of value.entries()) {
    if (typeof item !== "string") return { error: `${source}[${index}] is ${describeType(item)}, expected a string` };
    texts.push(item);
  }
  return { texts };
}

/** An issue about a mapped column names the user's column, including where its message starts with the column's name. */
function inUserColumns(reading: ForeignReading, issue: RowIssue): RowIssue {
  const mapping = reading.mappings.find((candidate) => candidate.target === issue.column);
  if (!mapping) return issue;
  const message = issue.message.startsWith(`${mapping.target} `)
    ? `${mapping.source}${issue.message.slice(mapping.target.length)}`
    : issue.message;
  return { ...issue, column: mapping.source, message };
}
