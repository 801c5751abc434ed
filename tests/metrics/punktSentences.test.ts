import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { computeIndividualBleu } from "@/lib/metrics/statistical/bleu";
import { punktSentences } from "@/lib/metrics/statistical/punktSentences";
import { wordTokenize } from "@/lib/metrics/statistical/wordTokenize";

// Made by NLTK 3.8's own PunktSentenceTokenizer, NLTKWordTokenizer and sentence_bleu over the English model's
// tables (tests/metrics/reference/punkt_reference.py says how): 40 texts written for Punkt's rules, 400 random
// ones over words of every kind its rules treat differently, and four response/expected pairs.
const REFERENCE = fs
  .readFileSync(path.join(import.meta.dirname, "reference", "punkt_reference.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as unknown);
const splitSchema = z.object({ text: z.string(), sentences: z.array(z.string()), tokens: z.array(z.string()) });
const pairSchema = z.object({ response: z.string(), expected: z.string(), bleu1: z.number() });
const SPLITS = REFERENCE.flatMap((entry) => {
  const parsed = splitSchema.safeParse(entry);
  return parsed.success ? [parsed.data] : [];
});
const PAIRS = REFERENCE.flatMap((entry) => {
  const parsed = pairSchema.safeParse(entry);
  return parsed.success ? [parsed.data] : [];
});

describe("sentences and word_tokenize tokens as NLTK's Punkt gives them", () => {
  it("reads the whole reference table", () => {
    expect(SPLITS).toHaveLength(440);
    expect(PAIRS).toHaveLength(4);
  });

  it.each(SPLITS.slice(0, 40).map((entry) => [entry.text, entry] as const))("%j", (_text, entry) => {
    expect(punktSentences(entry.text)).toEqual(entry.sentences);
    expect(wordTokenize(entry.text)).toEqual(entry.tokens);
  });

  it("splits the 400 random texts as NLTK does, sentence for sentence and token for token", () => {
    const differing = SPLITS.slice(40).filter(
      (entry) =>
        JSON.stringify(punktSentences(entry.text)) !== JSON.stringify(entry.sentences) ||
        JSON.stringify(wordTokenize(entry.text)) !== JSON.stringify(entry.tokens),
    );
    expect(differing.map((entry) => entry.text)).toEqual([]);
  });

  it.each(PAIRS.map((pair) => [pair.response, pair] as const))("bleu1 of %j is NLTK's", (_response, pair) => {
    const score = computeIndividualBleu(wordTokenize(pair.response), wordTokenize(pair.expected), 1).score;
    expect(score).toBeCloseTo(pair.bleu1, 12);
  });
});
