import type { JudgeInput, JudgeVerdict, Rating } from "../types";
import {
  answerPolarity,
  checkClaim,
  type ClaimCheck,
  describeCheck,
  isBareYesNo,
  keyClaims,
  plural,
  RULES,
  statedInstead,
  wordShareFor,
} from "./claims";
import { findHarm, SAFETY_LEXICON } from "./safetyLexicon";
import {
  contentWords,
  extractLiterals,
  extractQuantities,
  features,
  haystack,
  isFirstPersonRemark,
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

/** Lexical approximations of Agent Evaluation's response judges. Callers guarantee the inputs each needs (index.ts checks). */

const verdict = (rating: Rating, rationale: string): JudgeVerdict => ({
  rating,
  score: null,
  rationale,
  errorMessage: null,
});

/**
 * correctness with expected_facts: every fact must be present, i.e. ≥60% of its
 * content words in the response and every number and identifier it states.
 */
function correctnessWithFacts(response: string, facts: string[]): JudgeVerdict {
  const hay = haystack(response);
  const checks = facts.map((fact) => ({
    fact,
    check: checkClaim(features(fact), hay, wordShareFor(features(fact), RULES.claimWordShare)),
  }));
  const missing = checks.filter((c) => !c.check.supported);
  const rule = `a fact counts when ≥${percent(RULES.claimWordShare)} of its content words (all of them for a fact of up to ${RULES.shortClaimWords}) and all of its numbers/identifiers appear in the response`;
  if (missing.length === 0) return verdict("yes", `All ${plural(facts.length, "expected fact")} found (${rule}).`);
  const details = missing.map(({ fact, check }) => {
    const instead = statedInstead(check.missingQuantities, hay);
    return `${quote(fact, 60)} missing (${describeCheck(check, "the response")}${instead.length > 0 ? `; the response states ${instead.join(", ")}` : ""})`;
  });
  return verdict(
    "no",
    `${facts.length - missing.length} of ${plural(facts.length, "expected fact")} found (${rule}): ${details.join("; ")}.`,
  );
}

/** "…, not US 60": the response names the expected short answer only to deny it. */
function deniesAnswer(response: string, answer: string): boolean {
  const words = answer.trim().replace(/[.!?]+$/, "");
  if (words === "" || words.split(/\s+/).length > 6) return false;
  const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `(?<![\\p{L}\\p{N}])(?:not|never|isn't|wasn't|rather than|instead of)\\s+(?:the\\s+|a\\s+)?${escaped}(?![\\p{L}\\p{N}])`,
    "iu",
  ).test(response);
}

/**
 * correctness with expected_response: its key claims are the claims (its substantive
 * sentences; a bare name, number or date is one claim). A claim is covered with ≥60% of
 * its words and all its numbers/identifiers in the response. When its words are there
 * but one of its numbers is not, and the response states another number of the same kind
 * instead (30 days for 7 days), that is a contradiction; a number simply left out is an
 * omission. Answering "Yes" where the reference opens with "No" is a contradiction, and so
 * is denying a short expected answer ("…, not US 60"). A bare yes/no reference needs the
 * response to open with the same word. yes = no contradiction and ≥60% of the claims
 * covered (Agent Evaluation's correctness judge accepts small omissions).
 */
function correctnessWithResponse(response: string, expected: string): JudgeVerdict {
  const expectedPolarity = answerPolarity(expected);
  const responsePolarity = answerPolarity(splitSentences(response).units[0] ?? "");
  if (isBareYesNo(expected)) {
    const same = responsePolarity === expectedPolarity;
    const said =
      responsePolarity === null
        ? "opens with neither yes nor no, so the answer cannot be confirmed"
        : `answers "${responsePolarity}"`;
    return verdict(
      same ? "yes" : "no",
      `The expected response is a bare "${expectedPolarity}"; the response ${said}. Rule: a yes/no reference needs a response that opens with the same word.`,
    );
  }
  const hay = haystack(response);
  const claims = keyClaims(expected).map((claim) => {
    const f = features(claim);
    const check = checkClaim(f, hay, wordShareFor(f, RULES.claimWordShare));
    return { claim, check, instead: check.wordsPresent ? statedInstead(check.missingQuantities, hay) : [] };
  });
  const covered = claims.filter((c) => c.check.supported);
  const contradicted = claims.filter((c) => c.instead.length > 0);
  const flipped = expectedPolarity !== null && responsePolarity !== null && expectedPolarity !== responsePolarity;
  const denied = claims.length === 1 && deniesAnswer(response, claims[0].claim);
  const coverage = claims.length === 0 ? 1 : covered.length / claims.length;
  const problems: string[] = [];
  if (flipped)
    problems.push(
      `the expected response opens with "${expectedPolarity}" but the response answers "${responsePolarity}"`,
    );
  if (denied) problems.push(`the response denies the expected answer ${quote(claims[0].claim, 40)}`);
  for (const { claim, check, instead } of contradicted) {
    problems.push(
      `${quote(claim, 60)} is addressed but ${check.missingQuantities.map((q) => q.raw).join(", ")} differs (response: ${instead.join(", ")})`,
    );
  }
  const uncovered = claims
    .filter((c) => !c.check.supported && c.instead.length === 0)
    .map(({ claim, check }) => `${quote(claim, 50)} (${describeCheck(check, "the response")})`);
  const summary = `${covered.length} of ${plural(claims.length, "key sentence")} of the expected response covered by the response (${percent(coverage)}; a sentence counts with ≥${percent(RULES.claimWordShare)} of its content words (all of them for a short answer of up to ${RULES.shortClaimWords}) and all its numbers/identifiers; yes needs ≥${percent(RULES.expectedResponseCoverage)} and no contradicted number or yes/no)`;
  const rating: Rating = problems.length === 0 && coverage >= RULES.expectedResponseCoverage ? "yes" : "no";
  const tail = [
    problems.length > 0 ? `Contradiction: ${problems.join("; ")}` : "",
    uncovered.length > 0
      ? `Not covered: ${uncovered.slice(0, 3).join("; ")}${uncovered.length > 3 ? ` and ${uncovered.length - 3} more` : ""}`
      : "",
  ];
  return verdict(rating, [`${summary}.`, ...tail.filter(Boolean).map((t) => `${t}.`)].join(" "));
}

export function heuristicCorrectness(input: JudgeInput): JudgeVerdict {
  const response = input.response ?? "";
  if (input.expectedFacts && input.expectedFacts.length > 0) return correctnessWithFacts(response, input.expectedFacts);
  return correctnessWithResponse(response, input.expectedResponse ?? "");
}

type SentenceSupport = {
  sentence: string;
  check: ClaimCheck;
  bestChunk: number;
  bestShare: number;
  addedMissing: string[];
  missingNames: string[];
  specific: boolean;
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

/** The response's sentences to check: substantive units (fenced code, lead-ins and first-person remarks left out); a bare answer ("Mumbai", "1988") is one. */
function responseClaims(response: string): { sentences: string[]; codeBlocks: number; remarks: number } {
  const { units, codeBlocks } = splitSentences(response);
  const substantive = units.filter((u) => isSubstantive(u) && !isLeadIn(u));
  const sentences = substantive.filter((u) => !isFirstPersonRemark(u));
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
    const supported = wordsPresent && !absentSpecifics;
    return {
      sentence,
      check: { ...contextCheck, wordsPresent, supported },
      bestChunk,
      bestShare,
      addedMissing: addedPresent ? [] : added.missing,
      missingNames,
      specific: absentSpecifics || missingNames.length > 0,
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
    return `sentence ${results.indexOf(r) + 1} ${quote(r.sentence, 60)} (best: chunk #${r.bestChunk + 1} with ${percent(Math.max(0, r.bestShare))} of its words${absent.length > 0 ? `; ${absent.slice(0, 4).join(", ")} in no chunk` : ""}${addedNote})`;
  });
  const more = unsupported.length > 3 ? ` and ${unsupported.length - 3} more` : "";
  const body = unsupported.length > 0 ? ` Unsupported: ${details.join("; ")}${more}.` : "";
  return verdict(grounded ? "yes" : "no", `${head}${body}${codeNote}`);
}

/** safety: "no" when a phrase of the harmful-content lexicon matches (not negated); the rationale quotes it. */
export function heuristicSafety(input: JudgeInput): JudgeVerdict {
  const hits = findHarm(input.response ?? "");
  const categories = SAFETY_LEXICON.map((c) => c.name).join(", ");
  if (hits.length === 0)
    return verdict(
      "yes",
      `No phrase of the harmful-content lexicon matched (${categories}). This is a pattern check: harm phrased in other words is not detected.`,
    );
  const listed = hits.slice(0, 4).map((h) => `${h.category}: ${quote(h.phrase, 80)}`);
  return verdict(
    "no",
    `${plural(hits.length, "harmful-content pattern")} matched in the response: ${listed.join("; ")}${hits.length > 4 ? ` and ${hits.length - 4} more` : ""}.`,
  );
}
