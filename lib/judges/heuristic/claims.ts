import type { JudgeInput } from "../types";
import {
  contentWords,
  extractQuantities,
  type Haystack,
  isSubstantive,
  showWords,
  splitSentences,
  stem,
  literalFound,
  overlap,
  type Overlap,
  percent,
  type Quantity,
  quantityFound,
  type TextFeatures,
} from "./text";

/**
 * The thresholds of every heuristic rule, in one place so the rationales and
 * the docs quote the same numbers. Changing one changes verdicts: bump
 * HEURISTIC_PROMPT_VERSION in index.ts.
 */
export const RULES = {
  /** A fact / expected claim is present when this share of its content words is (plus all its numbers and identifiers)... */
  claimWordShare: 0.6,
  /** ...all of them when it has at most this many (a name or short answer). */
  shortClaimWords: 3,
  /** correctness with expected_response: share of its key sentences the response must cover. */
  expectedResponseCoverage: 0.6,
  /** A response sentence is grounded when one chunk holds this share of its content words... */
  sentenceChunkShare: 0.5,
  /** ...or all chunks together hold this share (sentences that combine chunks); the question is never evidence. */
  sentenceUnionShare: 0.6,
  /** ...and of the words a sentence adds to the question (its answer), this share must be in the chunks... */
  addedWordShare: 0.5,
  /** ...or all of them when it adds this many or fewer ("Mumbai", "Santa Fe"). */
  addedWordsAllUpTo: 2,
  /** groundedness, Agent Evaluation's "all or almost all": every sentence supported, or all but one from this many sentences on. */
  groundedAllButOneFrom: 4,
  /** relevance_to_query: share of the request's content words the response must use... */
  relevanceShare: 0.5,
  /** ...or at least this many of them... */
  relevanceMinWords: 2,
  /** ...or, for a question, a direct answer of at most this many words (a name, a number, a date, yes/no). */
  directAnswerMaxWords: 12,
  /** chunk_relevance: share of the request's content words a chunk must contain... */
  chunkShare: 0.5,
  /** ...or at least this many of them. */
  chunkMinWords: 3,
  /** context_sufficiency with expected_response: share of its key sentences the chunks must cover. */
  sufficiencyCoverage: 0.8,
} as const;

export type ClaimCheck = {
  /** The claim's text, for rationales. */
  text: string;
  overlap: Overlap;
  missingQuantities: Quantity[];
  missingLiterals: string[];
  /** Enough of the claim's words are present. */
  wordsPresent: boolean;
  /** Words present and every number and identifier present. */
  supported: boolean;
};

/** Checks one claim (fact, expected sentence, response sentence) against a text. */
export function checkClaim(claim: TextFeatures, hay: Haystack, wordShare: number): ClaimCheck {
  const ov = overlap(claim.words, hay.words);
  const missingQuantities = claim.quantities.filter((q) => !quantityFound(q, hay.quantities));
  const missingLiterals = claim.literals.filter((l) => !literalFound(l, hay.text));
  const wordsPresent =
    claim.words.size === 0 ? claim.quantities.length + claim.literals.length > 0 : ov.share >= wordShare;
  return {
    text: claim.text,
    overlap: ov,
    missingQuantities,
    missingLiterals,
    wordsPresent,
    supported: wordsPresent && missingQuantities.length === 0 && missingLiterals.length === 0,
  };
}

/** "60% of its words; 7 days, eu-central-1 not found" */
export function describeCheck(check: ClaimCheck, where: string): string {
  const parts = [`${percent(check.overlap.share)} of its content words`];
  if (!check.wordsPresent && check.overlap.missing.length > 0)
    parts.push(`missing ${showWords(check.overlap.missing, check.text, 4)}`);
  const absent = [...check.missingQuantities.map((q) => q.raw), ...check.missingLiterals];
  if (absent.length > 0) parts.push(`${absent.slice(0, 4).join(", ")} not in ${where}`);
  return parts.join("; ");
}

/** Quantities of the haystack in the same dimension as the missing ones: what the text says instead. */
export function statedInstead(missing: Quantity[], hay: Haystack): string[] {
  const dims = new Set(missing.map((q) => q.dimension));
  const raws = hay.quantities.filter((q) => dims.has(q.dimension) && /\d/.test(q.raw)).map((q) => q.raw);
  return [...new Set(raws)].slice(0, 4);
}

// How questions are framed, not what they are about: "how long does it take", "what's the best way".
const QUESTION_FRAMING = new Set(
  "long take takes happen happens want need like look see best quick quickest fast fastest easy easiest way tell know explain show actually exactly possible"
    .split(" ")
    .map(stem),
);
const questionWords = (text: string) =>
  new Set([...contentWords(text.replace(/\bhttps?:\/\/\S+/g, " "))].filter((w) => !QUESTION_FRAMING.has(w)));

/**
 * The request's content words. `last`: the last user turn, URLs and question framing
 * removed. `context`: the same, plus the earlier user turns when the last turn has
 * fewer than 3 content words (a follow-up such as "How long does a restore take?"
 * leans on the conversation for its topic).
 */
export function requestTerms(input: JudgeInput): { last: Set<string>; context: Set<string>; usedHistory: boolean } {
  const last = questionWords(input.request);
  const context = new Set(last);
  if (last.size >= 3) return { last, context, usedHistory: false };
  const earlier = input.messages.filter((m) => m.role === "user" && m.content !== input.request);
  for (const m of earlier) for (const w of questionWords(m.content)) context.add(w);
  return { last, context, usedHistory: earlier.length > 0 };
}

// Opening yes/no words; unaccented Spanish "si" means "if", so only "sí" counts.
const YES_NO = /^(yes|yeah|sí|ja|no|nope|not|nein|nicht)(?![\p{L}\p{N}])/u;

/** Whether a text opens with a yes or a no ("No. Delivery is at-least-once…"). */
export function answerPolarity(text: string): "yes" | "no" | null {
  const m = text.trim().toLowerCase().match(YES_NO);
  if (!m) return null;
  return ["yes", "yeah", "sí", "ja"].includes(m[1]) ? "yes" : "no";
}

/** "Yes.", "no": a yes/no with nothing else in it to check. */
export const isBareYesNo = (text: string): boolean =>
  answerPolarity(text) !== null && contentWords(text).size === 0 && extractQuantities(text).length === 0;

/**
 * The claims of a reference text: its substantive sentence units (code fences read as text).
 * A short text without such a unit, such as a bare name, number or date ("Delhi", "1988",
 * "alcohol"), is one claim itself; only a bare yes/no (or nothing) has no claim.
 */
export function keyClaims(text: string): string[] {
  const units = splitSentences(text.replace(/```|~~~/g, "\n")).units.filter(isSubstantive);
  if (units.length > 0) return units;
  const whole = text.trim();
  return /[\p{L}\p{N}]/u.test(whole) && !isBareYesNo(whole) ? [whole] : [];
}

/**
 * The share of a claim's words that must be present: a short claim without numbers (a
 * name such as "Albuquerque, New Mexico", "Pan American Games") is wrong with one word
 * changed, so all of its words are needed; longer claims, and claims about a quantity
 * (whose number is checked by value), allow paraphrase.
 */
export const wordShareFor = (claim: TextFeatures, share: number): number =>
  claim.words.size <= RULES.shortClaimWords && claim.quantities.length === 0 ? 1 : share;

export const plural = (n: number, word: string, pluralWord = `${word}s`): string =>
  `${n} ${n === 1 ? word : pluralWord}`;
