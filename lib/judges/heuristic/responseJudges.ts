import type { JudgeVerdict, Rating } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../types";
import {
  answerPolarity,
  checkClaim,
  describeCheck,
  isBareYesNo,
  keyClaims,
  plural,
  RULES,
  statedInstead,
  wordShareFor,
} from "./claims";
import { findHarm, SAFETY_LEXICON } from "./safetyLexicon";
import { conflictWith, describeConflict, sentencesOf } from "./sentenceConflicts";
import { features, haystack, percent, quote, splitSentences } from "./text";

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
  const responseSentences = sentencesOf([response]);
  const claims = keyClaims(expected).map((claim) => {
    const f = features(claim);
    const check = checkClaim(f, hay, wordShareFor(f, RULES.claimWordShare));
    // Its words are there; does the sentence that holds them negate it, reverse a relation, or change a name?
    const conflict = check.wordsPresent ? conflictWith(claim, responseSentences) : null;
    return {
      claim,
      check,
      instead: check.wordsPresent ? statedInstead(check.missingQuantities, hay) : [],
      conflict: conflict && conflict.kind !== "number" ? conflict : null,
    };
  });
  const covered = claims.filter((c) => c.check.supported && c.conflict === null);
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
  for (const { claim, conflict } of claims)
    if (conflict) problems.push(describeConflict(conflict, `the expected ${quote(claim, 50)}`, "the response"));
  for (const { claim, check, instead } of contradicted) {
    problems.push(
      `${quote(claim, 60)} is addressed but ${check.missingQuantities.map((q) => q.raw).join(", ")} differs (response: ${instead.join(", ")})`,
    );
  }
  const uncovered = claims
    .filter((c) => !c.check.supported && c.instead.length === 0 && c.conflict === null)
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
