import type { JudgeVerdict, Rating } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../types";
import { checkClaim, type ClaimCheck, plural, RULES } from "./claims";
import { conflictWith, describeConflict, sentencesOf } from "./sentenceConflicts";
import {
  contentWords,
  extractLiterals,
  extractQuantities,
  features,
  haystack,
  isSubstantive,
  nameTerms,
  overlap,
  percent,
  quantityFound,
  quote,
  showWords,
  splitSentences,
  termFound,
  tokenize,
} from "./text";

const verdict = (rating: Rating, rationale: string): JudgeVerdict => ({
  rating,
  score: null,
  rationale,
  errorMessage: null,
});

/** The assistant speaking of its own search, knowledge, ability or help: not a claim about the world, unless it states a number or identifier. */
const ASSISTANT_REMARK =
  /(?:^|[\s(])I(?:['’](?:d|m|ll|ve))?\s+(?:(?:could|can|do|did|was|am|would|will|have)(?:n['’]?t|\s+not)\s+(?:find|see|know|have|locate|access|help|answer|be able|confirm|determine|tell|say)|(?:am|['’]m)\s+(?:not\s+(?:sure|able|certain)|sorry|afraid|unable|happy|glad)|cannot|apologi[sz]e|hope|recommend|suggest|(?:would|['’]d)\s+(?:suggest|recommend|be happy|be glad|advise)|can\s+help|don['’]?t\s+know)/iu;

function isAssistantRemark(unit: string): boolean {
  return ASSISTANT_REMARK.test(unit) && extractQuantities(unit).length === 0 && extractLiterals(unit).length === 0;
}

/** "I think (that)", "In my opinion", "I'm fairly sure": the frame states nothing; the claim it frames does. */
const OPINION_FRAME =
  /^(?:I\s+(?:think|believe|guess|suppose|reckon|feel|would say)(?:\s+that)?|I['’]d\s+say(?:\s+that)?|In\s+my\s+(?:opinion|view|experience)|As\s+far\s+as\s+I\s+know|I(?:['’]m|\s+am)\s+(?:pretty\s+|fairly\s+|quite\s+)?(?:sure|certain|confident)(?:\s+that)?)[,:]?\s+/iu;

function withoutOpinionFrame(unit: string): string {
  const stripped = unit.replace(OPINION_FRAME, "");
  return stripped === unit ? unit : stripped.charAt(0).toUpperCase() + stripped.slice(1);
}

type SentenceSupport = {
  sentence: string;
  check: ClaimCheck;
  bestChunk: number;
  bestShare: number;
  addedMissing: string[];
  missingNames: string[];
  specific: boolean;
  /** What the passage it matches says otherwise: a negation, an opposite relation, another number or name. */
  conflict: string | null;
};

// A lead-in such as "It depends on the tier you choose:" introduces what follows; it states nothing itself.
const isLeadIn = (unit: string) =>
  /:\s*$/.test(unit) && extractQuantities(unit).length === 0 && extractLiterals(unit).length === 0;

/**
 * The part of a sentence that states facts: "X, so Y" and "X, which means Y" draw a
 * conclusion Y from X, which word overlap cannot check, so the word shares are measured on
 * X (Y's numbers, identifiers and names are still checked).
 */
function statedPart(sentence: string): string {
  const cut = sentence.search(/(?:,|;|\s[-–—])\s*(?:so|which means|meaning|and so|therefore|thus)\s/i);
  return cut > 0 && isSubstantive(sentence.slice(0, cut)) ? sentence.slice(0, cut) : sentence;
}

/**
 * The response's sentences to check: substantive units (fenced code, lead-ins and remarks about the
 * assistant itself left out); a bare answer ("Mumbai", "1988") is one. A first-person sentence is a
 * remark only when it speaks of the assistant's own search, knowledge or help ("I couldn't find…", "I'd
 * suggest…"); an opinion frame is dropped and what it frames is checked ("I think the museum opens at 9"
 * states that the museum opens at 9); any other first-person sentence ("I use it daily") is checked as
 * it stands, so a reply made of them is not grounded by default.
 */
function responseClaims(response: string): { sentences: string[]; codeBlocks: number; remarks: number } {
  const { units, codeBlocks } = splitSentences(response);
  const substantive = units.filter((u) => isSubstantive(u) && !isLeadIn(u));
  const sentences = substantive
    .filter((u) => !isAssistantRemark(u))
    .map(withoutOpinionFrame)
    .filter((u) => isSubstantive(u));
  const remarks = substantive.length - sentences.length;
  if (substantive.length === 0 && units.length > 0) {
    const whole = units.join(" ");
    if (contentWords(whole).size > 0 || extractQuantities(whole).length > 0)
      return { sentences: [whole], codeBlocks, remarks };
  }
  return { sentences, codeBlocks, remarks };
}

/**
 * groundedness: only the retrieved chunks are evidence; the user's question is not (a
 * sentence that restates the question and adds a wrong answer is not supported), except
 * for numbers the user stated ("after 30 days"), which need no support. Each response
 * sentence (fenced code, lead-ins and first-person remarks excluded; a bare answer is one
 * sentence) is supported when one chunk holds ≥50% of its content words or all chunks
 * together ≥60%, the words it adds to the question are there (≥50% of them, or all when it
 * adds one or two), and every number and identifier it states is there. In "X, so Y" only X
 * is held to the word shares (Y is a conclusion word overlap cannot check). An unsupported
 * sentence is a specific unsupported claim when a number or identifier is missing, or when
 * it introduces a name (capitalised term, inline code) found in no chunk and not in the
 * question. yes = no specific unsupported claim and every sentence supported, or all but
 * one when there are at least 4 (Agent Evaluation's "all or almost all": one unverified sentence of
 * advice or paraphrase in a longer answer is tolerated, a half-unsupported answer is not).
 */
export function heuristicGroundedness(input: JudgeInput): JudgeVerdict {
  const chunkTexts = input.retrievedContext.map((c) => c.content ?? "");
  const questionText =
    input.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n") || input.request;
  const questionWords = contentWords(questionText);
  const questionTokens = new Set(tokenize(questionText));
  const userValues = extractQuantities(questionText, true);
  const chunkHays = chunkTexts.map(haystack);
  const chunkSentences = sentencesOf(chunkTexts);
  const context = haystack(chunkTexts.join("\n"));
  const contextTokens = new Set(tokenize(context.text));
  const { sentences, codeBlocks, remarks } = responseClaims(input.response ?? "");
  const codeNote = `${codeBlocks > 0 ? ` ${plural(codeBlocks, "fenced code block")} not checked.` : ""}${remarks > 0 ? ` ${plural(remarks, "first-person remark")} ("I couldn't find…") not counted.` : ""}`;
  if (sentences.length === 0)
    return verdict(
      "yes",
      `The response has no sentence with enough content to check against the chunks (e.g. a bare yes or no).${codeNote}`,
    );
  const results: SentenceSupport[] = sentences.map((sentence) => {
    const whole = features(sentence);
    const f = {
      ...whole,
      words: contentWords(statedPart(sentence)),
      quantities: whole.quantities.filter((q) => !quantityFound(q, userValues)),
    };
    const contextCheck = checkClaim(f, context, RULES.sentenceUnionShare);
    let bestChunk = 0;
    let bestShare = -1;
    chunkHays.forEach((hay, i) => {
      const share = overlap(f.words, hay.words).share;
      if (share > bestShare) [bestChunk, bestShare] = [i, share];
    });
    const added = overlap(new Set([...f.words].filter((w) => !questionWords.has(w))), context.words);
    // A sentence that adds only a word or two to the question adds its answer: all of it must be there.
    const addedPresent =
      added.found.length + added.missing.length <= RULES.addedWordsAllUpTo
        ? added.missing.length === 0
        : added.share >= RULES.addedWordShare;
    const wordsPresent =
      f.words.size === 0 || ((bestShare >= RULES.sentenceChunkShare || contextCheck.wordsPresent) && addedPresent);
    const absentSpecifics = contextCheck.missingQuantities.length + contextCheck.missingLiterals.length > 0;
    const missingNames = wordsPresent
      ? []
      : nameTerms(sentence).filter((t) => !termFound(t, contextTokens) && !termFound(t, questionTokens));
    // Words that are all there can still say the opposite: a negation, an opposite relation, another number or name.
    // Only the stated part: a conclusion ("…, so no new versions pile up") is not held to the passage's words.
    const found = wordsPresent ? conflictWith(statedPart(sentence), chunkSentences, questionText) : null;
    const conflict = found ? describeConflict(found, "it", "the passage") : null;
    const supported = wordsPresent && !absentSpecifics && conflict === null;
    return {
      sentence,
      check: { ...contextCheck, wordsPresent, supported },
      bestChunk,
      bestShare,
      addedMissing: addedPresent ? [] : added.missing,
      missingNames,
      specific: absentSpecifics || missingNames.length > 0 || conflict !== null,
      conflict,
    };
  });
  const supported = results.filter((r) => r.check.supported);
  const unsupported = results.filter((r) => !r.check.supported);
  const specific = unsupported.filter((r) => r.specific);
  const share = supported.length / results.length;
  const grounded =
    specific.length === 0 &&
    (unsupported.length === 0 || (unsupported.length === 1 && results.length >= RULES.groundedAllButOneFrom));
  const head = `${supported.length} of ${plural(results.length, "response sentence")} supported by the retrieved chunks (${percent(share)}; supported = ≥${percent(RULES.sentenceChunkShare)} of its content words in one chunk or ≥${percent(RULES.sentenceUnionShare)} across the chunks, ≥${percent(RULES.addedWordShare)} of the words it adds to the question there (all when it adds ${RULES.addedWordsAllUpTo} or fewer), and its numbers and identifiers present; the question is not evidence, except numbers the user stated; yes needs all sentences supported, or all but one from ${RULES.groundedAllButOneFrom} sentences on, and no unsupported sentence stating a number, identifier or name absent from the chunks).`;
  const ordered = [...specific, ...unsupported.filter((r) => !r.specific)];
  const details = ordered.slice(0, 3).map((r) => {
    const absent = [
      ...r.check.missingQuantities.map((q) => q.raw),
      ...r.check.missingLiterals,
      ...r.missingNames.map((n) => `"${n}"`),
    ];
    const addedNote =
      absent.length === 0 && r.addedMissing.length > 0
        ? `; the words it adds to the question, ${showWords(r.addedMissing, r.sentence, 4)}, are in no chunk`
        : "";
    const conflictNote = r.conflict ? `; ${r.conflict}` : "";
    return `sentence ${results.indexOf(r) + 1} ${quote(r.sentence, 60)} (best: chunk #${r.bestChunk + 1} with ${percent(Math.max(0, r.bestShare))} of its words${absent.length > 0 ? `; ${absent.slice(0, 4).join(", ")} in no chunk` : ""}${addedNote}${conflictNote})`;
  });
  const more = unsupported.length > 3 ? ` and ${unsupported.length - 3} more` : "";
  const body = unsupported.length > 0 ? ` Unsupported: ${details.join("; ")}${more}.` : "";
  return verdict(grounded ? "yes" : "no", `${head}${body}${codeNote}`);
}
