import { z } from "zod";
import { METRICS, type RowInput } from "./metricCatalog";
import { rowHasInput, type RowFlags } from "./rowInputs";

/**
 * What a dataset's rows carry, kept as counts of row signatures: a signature is the set of inputs a row has
 * (those that decide which metrics it allows) and of the upload's columns it filled. A dataset has a handful
 * of distinct signatures, so the counts are tiny, and every figure of the input coverage (rows per input,
 * per metric, per column) is a sum over them. They are counted as the upload writes its rows, so the dataset
 * page does not read 100,000 rows and their chunks to say which metrics can run (6 s at that size).
 */
export const SIGNATURE_INPUTS: readonly RowInput[] = [
  "response",
  "expected_response_or_facts",
  "expected_response",
  "retrieved_context_content",
  "retrieved_context_doc_uri",
  "expected_retrieved_context",
  "expected_context_content",
  "trace_tokens",
  "trace_latency",
  "tool_calls",
  "expected_tool_calls",
  "trace",
  "conversation",
  "response_or_empty",
];

/** The upload columns the dataset page counts; request_id and request are on every row. */
export const SIGNATURE_COLUMNS = [
  "response",
  "expected_facts",
  "expected_response",
  "retrieved_context",
  "expected_retrieved_context",
  "trace",
  "tool_calls",
  "expected_tool_calls",
] as const;
export type SignatureColumn = (typeof SIGNATURE_COLUMNS)[number];

/** How many of a dataset's rows carry each input, and on how many each metric can run (lib/metrics/availability.ts reads it). */
export type InputCoverage = { rowCount: number; inputs: Record<RowInput, number>; metrics: Record<string, number> };

/** Signature (a bit per input, then per column, as a decimal string) → rows. */
export type InputSignatureCounts = Record<string, number>;

/** The kept form (Dataset.inputCoverage): versioned, so a change of the bits is recomputed, never misread. */
// 2: tool calls and expected tool calls added (bits moved); a dataset kept at 1 is counted again.
// 3: response_or_empty (an empty response column, for DeepEval-exact) added.
const STORED_VERSION = 3;
const storedSchema = z.object({ version: z.literal(STORED_VERSION), signatures: z.record(z.string(), z.number()) });

export type SignatureRow = RowFlags & { responseFromColumn: boolean; hasTrace: boolean; toolCallsFromColumn: boolean };

export function signatureOf(row: SignatureRow): number {
  let bits = 0;
  SIGNATURE_INPUTS.forEach((input, i) => {
    // As the upload stored it: a run that generates responses supplies its own, which availability adds later.
    if (rowHasInput(row, input, false)) bits |= 1 << i;
  });
  const columns: Record<SignatureColumn, boolean> = {
    response: row.responseFromColumn,
    expected_facts: row.hasExpectedFacts,
    expected_response: row.hasExpectedResponse,
    retrieved_context: row.hasRetrievedContext,
    expected_retrieved_context: row.hasExpectedRetrievedContext,
    trace: row.hasTrace,
    tool_calls: row.toolCallsFromColumn,
    expected_tool_calls: row.hasExpectedToolCalls ?? false,
  };
  SIGNATURE_COLUMNS.forEach((column, i) => {
    if (columns[column]) bits |= 1 << (SIGNATURE_INPUTS.length + i);
  });
  return bits;
}

export function addSignature(counts: InputSignatureCounts, signature: number, rows = 1): void {
  counts[signature] = (counts[signature] ?? 0) + rows;
}

export function storeSignatures(counts: InputSignatureCounts): string {
  return JSON.stringify({ version: STORED_VERSION, signatures: counts });
}

/** The kept counts, or null when there are none (a dataset from before they were kept) or of another version. */
export function readStoredSignatures(stored: string | null): InputSignatureCounts | null {
  if (stored === null) return null;
  const parsed = storedSchema.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data.signatures : null;
}

/** Every figure of the dataset's input coverage, summed over its signatures. */
export function coverageOfSignatures(
  counts: InputSignatureCounts,
): InputCoverage & { columns: Record<"request_id" | "request" | SignatureColumn, number> } {
  const entries = Object.entries(counts).map(([signature, rows]) => [Number(signature), rows] as const);
  const rowsWith = (bits: number) =>
    entries.reduce((sum, [signature, rows]) => ((signature & bits) === bits ? sum + rows : sum), 0);
  const inputBit = (input: RowInput) => 1 << SIGNATURE_INPUTS.indexOf(input);
  const rowCount = rowsWith(0);
  return {
    rowCount,
    inputs: Object.fromEntries(SIGNATURE_INPUTS.map((input) => [input, rowsWith(inputBit(input))])) as Record<
      RowInput,
      number
    >,
    metrics: Object.fromEntries(
      METRICS.map((metric) => [
        metric.name,
        rowsWith(metric.requires.reduce((bits, input) => bits | inputBit(input), 0)),
      ]),
    ),
    columns: {
      request_id: rowCount,
      request: rowCount,
      ...(Object.fromEntries(
        SIGNATURE_COLUMNS.map((column, i) => [column, rowsWith(1 << (SIGNATURE_INPUTS.length + i))]),
      ) as Record<SignatureColumn, number>),
    },
  };
}
