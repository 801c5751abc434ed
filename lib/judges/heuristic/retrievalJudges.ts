import type { ChunkVerdict, JudgeInput, JudgeVerdict } from "../types";
import { checkClaim, describeCheck, plural, requestTerms, RULES } from "./claims";
import { contentWords, features, haystack, isSubstantive, overlap, percent, quote, showWords, splitSentences } from "./text";

/** Lexical approximations of the seed's retrieval judges. */

const hasText = (content: string | null): content is string => content !== null && content.trim().length > 0;

/**
 * chunk_relevance: a chunk is relevant when it contains ≥50% of the last user turn's
 * content words, or at least 3 of the request's words (conversation included for short
 * follow-ups): long requests rarely have half their words in one chunk.
 * precision = relevant chunks / retrieved chunks; empty chunks count as not relevant.
 */
export function heuristicChunkRelevance(input: JudgeInput): JudgeVerdict {
  const { last, context, usedHistory } = requestTerms(input);
  const requestText = input.messages.filter((m) => m.role === "user").map((m) => m.content).concat(input.request).join("\n");
  const rule = `relevant = ≥${percent(RULES.chunkShare)} of the request's content words or at least ${RULES.chunkMinWords} of them`;
  const chunks: ChunkVerdict[] = input.retrievedContext.map((chunk, position) => {
    if (!hasText(chunk.content)) return { position, rating: "no", rationale: "The chunk has no text content, so it cannot answer the request.", errorMessage: null };
    if (context.size === 0) return { position, rating: "yes", rationale: "The request has no content words to match (e.g. a greeting); nothing shows the chunk is off-topic.", errorMessage: null };
    const words = contentWords(chunk.content);
    const lastOverlap = overlap(last, words);
    const contextOverlap = overlap(context, words);
    const relevant = (last.size > 0 && lastOverlap.share >= RULES.chunkShare) || contextOverlap.found.length >= RULES.chunkMinWords;
    const shared = contextOverlap.found.length > 0 ? `: ${showWords(contextOverlap.found, requestText)}` : "";
    const history = usedHistory ? `, ${contextOverlap.found.length} of ${context.size} with the earlier user turns` : "";
    return {
      position,
      rating: relevant ? "yes" : "no",
      rationale: `Contains ${lastOverlap.found.length} of ${last.size} request content words (${percent(lastOverlap.share)})${history}${shared}. Rule: ${rule}.`,
      errorMessage: null,
    };
  });
  const yes = chunks.filter((c) => c.rating === "yes").length;
  const score = chunks.length === 0 ? null : yes / chunks.length;
  const rationale = chunks.length === 0
    ? "No chunks were retrieved, so precision is undefined."
    : `${yes} of ${plural(chunks.length, "chunk")} relevant by keyword overlap with the request: precision ${score?.toFixed(2)} (${rule}).`;
  return { rating: null, score, rationale, errorMessage: null, chunks };
}

/**
 * context_sufficiency: the chunks (plus the user's own messages) must contain the ground truth. With
 * expected_facts every fact must be present (≥60% of its words, all its numbers and
 * identifiers); with expected_response ≥80% of its key sentences must be.
 */
export function heuristicContextSufficiency(input: JudgeInput): JudgeVerdict {
  const texts = input.retrievedContext.map((c) => c.content).filter(hasText);
  // The user's own words count as known: "after 30 days" in the question needs no chunk.
  const userText = input.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n") || input.request;
  const union = haystack([...texts, userText].join("\n"));
  const chunkHays = texts.map(haystack);
  const usingFacts = input.expectedFacts !== null && input.expectedFacts.length > 0;
  const claims = usingFacts ? (input.expectedFacts ?? []) : splitSentences((input.expectedResponse ?? "").replace(/```|~~~/g, "\n")).units.filter(isSubstantive);
  const checks = claims.map((claim) => {
    const f = features(claim);
    const check = checkClaim(f, union, RULES.claimWordShare);
    const best = chunkHays.reduce((acc, hay, i) => {
      const share = overlap(f.words, hay.words).share;
      return share > acc.share ? { i, share } : acc;
    }, { i: -1, share: -1 });
    return { claim, check, best };
  });
  const present = checks.filter((c) => c.check.supported);
  const share = claims.length === 0 ? 1 : present.length / claims.length;
  const needed = usingFacts ? 1 : RULES.sufficiencyCoverage;
  const sufficient = share >= needed;
  const unit = usingFacts ? "expected fact" : "key sentence of the expected response";
  const units = usingFacts ? "expected facts" : "key sentences of the expected response";
  const head = `${present.length} of ${claims.length} ${claims.length === 1 ? unit : units} found in the retrieved chunks (${percent(share)}; found = ≥${percent(RULES.claimWordShare)} of its content words and all its numbers/identifiers across the chunks; yes needs ${usingFacts ? "all" : `≥${percent(needed)}`}).`;
  const missing = checks.filter((c) => !c.check.supported).map(({ claim, check, best }) => `${quote(claim, 60)} (${describeCheck(check, "any chunk")}${best.i >= 0 ? `; closest chunk #${best.i + 1}` : ""})`);
  const body = missing.length > 0 ? ` Missing information: ${missing.slice(0, 4).join("; ")}${missing.length > 4 ? ` and ${missing.length - 4} more` : ""}.` : "";
  const empty = texts.length < input.retrievedContext.length ? ` ${plural(input.retrievedContext.length - texts.length, "chunk")} without text ignored.` : "";
  return { rating: sufficient ? "yes" : "no", score: null, rationale: `${head}${body}${empty}`, errorMessage: null };
}
