import {
  contextualPrecisionScore,
  contextualRecallScore,
  faithfulnessScore,
  hallucinationScore,
  type BinaryVerdict,
  type TriVerdict,
} from "@/lib/metrics/qag/formulas";
import { expectedOutputText } from "../../prompts/scoreMetrics/shared";
import type { ScoreMetricSettings } from "../../judgeBackend";
import type { DetailItem, JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../../types";
import {
  checkClaim,
  describeCheck,
  keyClaims,
  plural,
  RULES,
  statedInstead,
  wordShareFor,
  type ClaimCheck,
} from "../claims";
import { features, haystack, percent, quote, type Haystack } from "../text";

/**
 * Offline versions of the DeepEval metrics whose verdicts the claim-support
 * rules of the built-in heuristic judge (../claims.ts) can give honestly:
 * "supported" (enough of a claim's words and all its numbers/identifiers in
 * the text) and "contradicted" (the claim is addressed, but the text states a
 * different number of the same kind). Scores come from the same QAG formulas
 * as the LLM templates. What word overlap cannot see (paraphrase, a
 * contradiction without a number) it misses: the rationale says so.
 */

type Checked = { claim: string; check: ClaimCheck; instead: string[] };

function checkAgainst(claim: string, hay: Haystack): Checked {
  const f = features(claim);
  const check = checkClaim(f, hay, wordShareFor(f, RULES.claimWordShare));
  return { claim, check, instead: check.wordsPresent ? statedInstead(check.missingQuantities, hay) : [] };
}

const contradicted = (c: Checked) =>
  c.check.wordsPresent && c.check.missingQuantities.length > 0 && c.instead.length > 0;

const SUPPORT_RULE = `supported = ≥${percent(RULES.claimWordShare)} of its content words (all of them for a short claim) and every number and identifier found; contradicted = addressed but with a different number of the same kind`;

function verdict(
  score: number,
  rationale: string,
  title: string,
  items: DetailItem[],
  figures: Record<string, number>,
): JudgeVerdict {
  return { rating: null, score, rationale, errorMessage: null, details: { groups: [{ title, items }], figures } };
}

/** faithfulness offline: each response claim against the retrieval context taken together; yes supported, no contradicted, idk otherwise. */
export function heuristicFaithfulness(input: JudgeInput, settings?: ScoreMetricSettings): JudgeVerdict {
  // DeepEval's penalize_ambiguous_claims: an idk claim counts against the score.
  const penalizeAmbiguousClaims = settings?.deepEval?.penalizeAmbiguousClaims === true;
  const hay = haystack(input.retrievedContext.map((c) => c.content ?? "").join("\n"));
  const claims = keyClaims(input.response ?? "").map((claim) => checkAgainst(claim, hay));
  const verdicts: TriVerdict[] = claims.map((c) => (contradicted(c) ? "no" : c.check.supported ? "yes" : "idk"));
  const items = claims.map((c, i) =>
    verdicts[i] === "no"
      ? { text: c.claim, verdict: "no", reason: `the context states ${c.instead.join(", ")} instead` }
      : { text: c.claim, verdict: verdicts[i], reason: describeCheck(c.check, "the retrieval context") },
  );
  const no = verdicts.filter((v) => v === "no").length;
  const yes = verdicts.filter((v) => v === "yes").length;
  return verdict(
    faithfulnessScore(verdicts, { penalizeAmbiguousClaims }),
    `${plural(claims.length, "claim")} of the response: ${yes} supported by the retrieval context, ${no} contradicted by a different number, ${claims.length - yes - no} neither (idk, counted ${penalizeAmbiguousClaims ? "against the score: penalize_ambiguous_claims" : "as faithful"}). Rule: ${SUPPORT_RULE}. A contradiction without a number is not detected.`,
    "Claims",
    items,
    { claims: claims.length, yes, no, idk: claims.length - yes - no },
  );
}

/** hallucination offline: an ideal-context item is contradicted when the response addresses one of its sentences with a different number of the same kind. */
export function heuristicHallucination(input: JudgeInput): JudgeVerdict {
  const hay = haystack(input.response ?? "");
  const items = input.expectedContext ?? [];
  const verdicts: BinaryVerdict[] = [];
  const shown = items.map((item) => {
    const hit = keyClaims(item)
      .map((sentence) => checkAgainst(sentence, hay))
      .find(contradicted);
    verdicts.push(hit ? "no" : "yes");
    return hit
      ? {
          text: item,
          verdict: "no",
          reason: `${hit.claim}: the response states ${hit.instead.join(", ")} instead`,
          tags: ["contradicted"],
        }
      : {
          text: item,
          verdict: "yes",
          reason: "no number of this item is contradicted by the response",
          tags: ["not contradicted"],
        };
  });
  const contradictedCount = verdicts.filter((v) => v === "no").length;
  return verdict(
    hallucinationScore(verdicts),
    `${contradictedCount} of ${plural(items.length, "ideal-context item")} contradicted by the response (a sentence of the item addressed with a different number of the same kind). A contradiction without a number is not detected.`,
    "Ideal context items",
    shown,
    { items: items.length, contradicted: contradictedCount },
  );
}

/** contextual_recall offline: a sentence of the expected output is attributable when one retrieval node supports it (the claim-support rule). */
export function heuristicContextualRecall(input: JudgeInput): JudgeVerdict {
  const nodes = input.retrievedContext.map((c) => haystack(c.content ?? ""));
  const sentences = keyClaims(expectedOutputText(input));
  const verdicts: BinaryVerdict[] = [];
  const items = sentences.map((sentence) => {
    const checks = nodes.map((node) => checkAgainst(sentence, node));
    const node = checks.findIndex((c) => c.check.supported);
    verdicts.push(node >= 0 ? "yes" : "no");
    const best = checks.reduce<Checked | null>(
      (a, c) => (!a || c.check.overlap.share > a.check.overlap.share ? c : a),
      null,
    );
    return node >= 0
      ? {
          text: sentence,
          verdict: "yes",
          reason: describeCheck(checks[node].check, `node ${node + 1}`),
          tags: [`node ${node + 1}`],
        }
      : {
          text: sentence,
          verdict: "no",
          reason: best ? describeCheck(best.check, "any node") : "no retrieval context",
        };
  });
  const yes = verdicts.filter((v) => v === "yes").length;
  return verdict(
    contextualRecallScore(verdicts),
    `${yes} of ${plural(sentences.length, "sentence")} of the expected output attributable to a retrieval node. Rule: a sentence is attributable when one node holds ≥${percent(RULES.claimWordShare)} of its content words (all of them for a short one) and all its numbers and identifiers.`,
    "Expected output sentences",
    items,
    { sentences: sentences.length, attributable: yes },
  );
}

/**
 * contextual_precision offline: a node is useful for the expected output when it supports at least one of
 * its sentences (the contextual_recall rule, read per node); rank-weighted average precision over the nodes.
 */
export function heuristicContextualPrecision(input: JudgeInput): JudgeVerdict {
  const sentences = keyClaims(expectedOutputText(input));
  const verdicts: BinaryVerdict[] = [];
  const items = input.retrievedContext.map((chunk, index) => {
    const node = haystack(chunk.content ?? "");
    const supported = sentences.filter((sentence) => checkAgainst(sentence, node).check.supported);
    verdicts.push(supported.length > 0 ? "yes" : "no");
    const content = chunk.content ?? "";
    return {
      text: content.length > 300 ? `${content.slice(0, 300)}…` : content,
      verdict: supported.length > 0 ? "yes" : "no",
      reason:
        supported.length > 0
          ? `supports ${plural(supported.length, "sentence")} of the expected output, e.g. ${quote(supported[0], 60)}`
          : "supports no sentence of the expected output",
      tags: [`rank ${index + 1}`, ...(chunk.docUri ? [chunk.docUri] : [])],
    };
  });
  const relevant = verdicts.filter((v) => v === "yes").length;
  return verdict(
    contextualPrecisionScore(verdicts),
    `${relevant} of ${plural(verdicts.length, "retrieval node")} support a sentence of the expected output; score = rank-weighted average precision over them. Rule: a node supports a sentence when it holds ≥${percent(RULES.claimWordShare)} of its content words (all of them for a short one) and all its numbers and identifiers.`,
    "Retrieval nodes",
    items,
    { nodes: verdicts.length, relevant },
  );
}
