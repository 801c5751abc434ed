import type { ChunkVerdict, JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../types";
import { checkClaim, describeCheck, isBareYesNo, keyClaims, plural, requestTerms, RULES, wordShareFor } from "./claims";
import {
  contentWords,
  extractQuantities,
  features,
  haystack,
  overlap,
  percent,
  quantityFound,
  quote,
  showWords,
} from "./text";

/** Lexical approximations of Agent Evaluation's retrieval judges. */

const hasText = (content: string | null): content is string => content !== null && content.trim().length > 0;

/**
 * chunk_relevance: a chunk is relevant when it contains ≥50% of the last user turn's
 * content words, or at least 3 of the request's words (conversation included for short
 * follow-ups): long requests rarely have half their words in one chunk.
 * precision = relevant chunks / retrieved chunks; empty chunks count as not relevant.
 */
export function heuristicChunkRelevance(input: JudgeInput): JudgeVerdict {
  const { last, context, usedHistory } = requestTerms(input);
  const requestText = input.messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .concat(input.request)
    .join("\n");
  const rule = `relevant = ≥${percent(RULES.chunkShare)} of the request's content words or at least ${RULES.chunkMinWords} of them`;
  const chunks: ChunkVerdict[] = input.retrievedContext.map((chunk, position) => {
    if (!hasText(chunk.content))
      return {
        position,
        rating: "no",
        rationale: "The chunk has no text content, so it cannot answer the request.",
        errorMessage: null,
      };
    if (context.size === 0)
      return {
        position,
        rating: "yes",
        rationale: "The request has no content words to match (e.g. a greeting); nothing shows the chunk is off-topic.",
        errorMessage: null,
      };
    const words = contentWords(chunk.content);
    const lastOverlap = overlap(last, words);
    const contextOverlap = overlap(context, words);
    const relevant =
      (last.size > 0 && lastOverlap.share >= RULES.chunkShare) || contextOverlap.found.length >= RULES.chunkMinWords;
    const shared = contextOverlap.found.length > 0 ? `: ${showWords(contextOverlap.found, requestText)}` : "";
    const history = usedHistory
      ? `, ${contextOverlap.found.length} of ${context.size} with the earlier user turns`
      : "";
    return {
      position,
      rating: relevant ? "yes" : "no",
      rationale: `Contains ${lastOverlap.found.length} of ${last.size} request content words (${percent(lastOverlap.share)})${history}${shared}. Rule: ${rule}.`,
      errorMessage: null,
    };
  });
  const yes = chunks.filter((c) => c.rating === "yes").length;
  const score = chunks.length === 0 ? null : yes / chunks.length;
  const rationale =
    chunks.length === 0
      ? "No chunks were retrieved, so precision is undefined."
      : `${yes} of ${plural(chunks.length, "chunk")} relevant by keyword overlap with the request: precision ${score?.toFixed(2)} (${rule}).`;
  return { rating: null, score, rationale, errorMessage: null, chunks };
}

/**
 * context_sufficiency: the retrieved chunks alone must contain the ground truth; the user's
 * question is not retrieved context (a question that names the answer, "Arthur's Magazine
 * or First for Women?", does not mean the retriever found the document that settles it).
 * Only a number the user stated and the reference repeats ("after 30 days") is not looked
 * for: it is the user's input. With expected_facts every fact must be present
 * (≥60% of its words, all its numbers and identifiers); with expected_response ≥80% of its
 * key claims (substantive sentences; a bare name, number or date is one claim). A bare
 * yes/no expected response cannot be looked up, so the chunks must hold what the question
 * asks about instead.
 */
export function heuristicContextSufficiency(input: JudgeInput): JudgeVerdict {
  const texts = input.retrievedContext.map((c) => c.content).filter(hasText);
  const union = haystack(texts.join("\n"));
  const chunkHays = texts.map(haystack);
  const usingFacts = input.expectedFacts !== null && input.expectedFacts.length > 0;
  const expected = input.expectedResponse ?? "";
  const yesNo = !usingFacts && isBareYesNo(expected);
  const claims = usingFacts ? (input.expectedFacts ?? []) : yesNo ? [input.request] : keyClaims(expected);
  // A value the user stated ("after 30 days") and the reference repeats is the user's input, not something to retrieve.
  const userValues = extractQuantities(
    input.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n") || input.request,
    true,
  );
  const checks = claims.map((claim) => {
    const stated = features(claim);
    const f = { ...stated, quantities: stated.quantities.filter((q) => !quantityFound(q, userValues)) };
    const check = checkClaim(f, union, wordShareFor(stated, RULES.claimWordShare));
    const best = chunkHays.reduce(
      (acc, hay, i) => {
        const share = overlap(f.words, hay.words).share;
        return share > acc.share ? { i, share } : acc;
      },
      { i: -1, share: -1 },
    );
    return { claim, check, best };
  });
  const present = checks.filter((c) => c.check.supported);
  const share = claims.length === 0 ? 1 : present.length / claims.length;
  const needed = usingFacts || yesNo ? 1 : RULES.sufficiencyCoverage;
  const sufficient = share >= needed;
  const unit = usingFacts
    ? "expected fact"
    : yesNo
      ? "question (the expected response is a bare yes/no)"
      : "key sentence of the expected response";
  const units = usingFacts ? "expected facts" : yesNo ? "questions" : "key sentences of the expected response";
  const head = `${present.length} of ${claims.length} ${claims.length === 1 ? unit : units} found in the retrieved chunks (${percent(share)}; found = ≥${percent(RULES.claimWordShare)} of its content words (all of them for a claim of up to ${RULES.shortClaimWords}) and all its numbers/identifiers across the chunks, the user's question not counted as context, except numbers the user stated; yes needs ${needed === 1 ? "all" : `≥${percent(needed)}`}).`;
  const missing = checks
    .filter((c) => !c.check.supported)
    .map(
      ({ claim, check, best }) =>
        `${quote(claim, 60)} (${describeCheck(check, "any chunk")}${best.i >= 0 ? `; closest chunk #${best.i + 1}` : ""})`,
    );
  const body =
    missing.length > 0
      ? ` Missing information: ${missing.slice(0, 4).join("; ")}${missing.length > 4 ? ` and ${missing.length - 4} more` : ""}.`
      : "";
  const empty =
    texts.length < input.retrievedContext.length
      ? ` ${plural(input.retrievedContext.length - texts.length, "chunk")} without text ignored.`
      : "";
  return { rating: sufficient ? "yes" : "no", score: null, rationale: `${head}${body}${empty}`, errorMessage: null };
}
