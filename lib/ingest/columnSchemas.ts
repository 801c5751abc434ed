import { z } from "zod";
import type { ContextItem } from "@/lib/contract/normalizedRow";
import { expectedToolCallEntrySchema, toolCallEntrySchema } from "@/lib/contract/toolCalls";

/** Per-column zod schemas for the Agent Evaluation input schema's columns; messages are written for people. */
export const contextArraySchema = z.array(
  z.object(
    {
      content: z.string({ error: "content must be a string" }).nullish(),
      doc_uri: z.string({ error: "every chunk needs a doc_uri string" }).min(1, "doc_uri is empty"),
    },
    { error: "each chunk must be an object {content, doc_uri}" },
  ),
  { error: 'expected an array of {"content": ..., "doc_uri": ...} objects' },
);

export const expectedFactsSchema = z
  .array(z.string({ error: "every fact must be a string" }).min(1, "a fact is empty"), {
    error: 'expected an array of strings, e.g. ["fact one", "fact two"]',
  })
  .min(1, "expected_facts is an empty array");

export const toolCallsSchema = z.array(toolCallEntrySchema, {
  error: 'expected an array of tool calls, e.g. [{"name": "search", "arguments": {"query": "..."}}]',
});

export const expectedToolCallsSchema = z.array(expectedToolCallEntrySchema, {
  error: 'expected an array of expected calls, e.g. [{"name": "search", "arguments": {"query": "..."}}] or ["search"]',
});

export const textColumnSchema = z.string({ error: "expected a string" });

export const requestIdSchema = z
  .union([z.string(), z.number()], { error: "expected a string or a number" })
  .transform((value) => String(value).trim());

export function toContextItems(items: z.infer<typeof contextArraySchema>): ContextItem[] {
  return items.map((item) => ({ content: item.content ?? null, docUri: item.doc_uri }));
}
