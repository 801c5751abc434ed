import { z } from "zod";
import type { Responder } from "./fakeOpenAIServer";
import { fencedContents } from "./fenced";

/**
 * Makes the fake OpenAI server answer the DeepEval-family templates
 * (lib/judges/prompts/scoreMetrics) like a judge whose verdicts the test
 * controls with markers in the judged content, so scores can be computed by hand.
 * Items are the sentences (split on ". ") of the fenced part a metric reads:
 *   faithfulness        actual_output sentences; CONTRADICTS → no, UNKNOWN → idk, else yes
 *   answer_relevancy    actual_output sentences; OFFTOPIC → no, MAYBE → idk, else yes
 *   contextual_precision one verdict per retrieval node; IRRELEVANT → no
 *   contextual_recall   expected_output sentences; UNSUPPORTED → no (else node 1)
 *   contextual_relevancy each node's sentences; IRRELEVANT → no
 *   hallucination       one verdict per context item; CONTRADICTED → no
 *   toxicity / bias     actual_output sentences with OPINION are opinions; TOXIC / BIASED → yes
 *   summarization       call 1: summary sentences: WRONG → no, INVENTED → idk; one question per KEYn
 *                       in the source (at most 5), "Does the text state KEYn?", the source answering yes;
 *                       without any KEYn, one question about "its main point";
 *                       call 2 (the summary alone): yes when the summary says KEYn (any non-empty summary
 *                       for the main point), else idk
 * The overall reason is given only when the request's schema asks for one (a run with include_reason off
 * asks for none); a summarization run with its own assessment questions gets one source answer ("yes")
 * per question, by index.
 * Any other request gets undefined (the server's default answer).
 */
export const fakeScoreMetricResponder: Responder = (body) => {
  const answer = answerFor(body);
  if (answer === undefined) return undefined;
  const properties = body.response_format?.json_schema?.schema?.properties ?? {};
  const parsed = z.record(z.string(), z.unknown()).parse(JSON.parse(answer));
  if (!("reason" in properties)) delete parsed.reason;
  return JSON.stringify(parsed);
};

type RequestBody = Parameters<Responder>[0];

function answerFor(body: RequestBody): string | undefined {
  const schemaName: string = body.response_format?.json_schema?.name ?? body.tools?.[0]?.function?.name ?? "";
  const prompt = (body.messages as { role: string; content: string }[])
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  const reason = `${schemaName}: checked`;
  const output = fencedContents(prompt, "actual_output")[0] ?? "";
  const pick = (text: string, marks: [string, string][], otherwise: string) =>
    marks.find(([marker]) => text.includes(marker))?.[1] ?? otherwise;
  switch (schemaName) {
    case "faithfulness_claims":
      return JSON.stringify({
        claims: sentences(output).map((claim) => ({
          claim,
          verdict: pick(
            claim,
            [
              ["CONTRADICTS", "no"],
              ["UNKNOWN", "idk"],
            ],
            "yes",
          ),
          reason: "compared with the context",
        })),
        reason,
      });
    case "answer_relevancy_statements":
      return JSON.stringify({
        statements: sentences(output).map((statement) => ({
          statement,
          verdict: pick(
            statement,
            [
              ["OFFTOPIC", "no"],
              ["MAYBE", "idk"],
            ],
            "yes",
          ),
          reason: "compared with the input",
        })),
        reason,
      });
    case "contextual_precision_nodes":
      return JSON.stringify({
        verdicts: fencedContents(prompt, "retrieval_node").map((node, i) => ({
          node_index: i + 1,
          verdict: node.includes("IRRELEVANT") ? "no" : "yes",
          reason: `node ${i + 1}`,
        })),
        reason,
      });
    case "contextual_recall_sentences":
      return JSON.stringify({
        sentences: sentences(fencedContents(prompt, "expected_output")[0] ?? "").map((sentence) => {
          const supported = !sentence.includes("UNSUPPORTED");
          return {
            sentence,
            verdict: supported ? "yes" : "no",
            node_index: supported ? 1 : null,
            reason: "attributed",
          };
        }),
        reason,
      });
    case "contextual_relevancy_statements":
      return JSON.stringify({
        nodes: fencedContents(prompt, "retrieval_node").map((node, i) => ({
          node_index: i + 1,
          statements: sentences(node).map((statement) => ({
            statement,
            verdict: statement.includes("IRRELEVANT") ? "no" : "yes",
            reason: "vs input",
          })),
        })),
        reason,
      });
    case "hallucination_context_items":
      return JSON.stringify({
        verdicts: fencedContents(prompt, "context_item").map((item, i) => ({
          context_index: i + 1,
          verdict: item.includes("CONTRADICTED") ? "no" : "yes",
          reason: `item ${i + 1}`,
        })),
        reason,
      });
    case "toxicity_opinions":
    case "bias_opinions": {
      const marker = schemaName === "toxicity_opinions" ? "TOXIC" : "BIASED";
      return JSON.stringify({
        opinions: sentences(output)
          .filter((s) => s.includes("OPINION"))
          .map((opinion) => ({ opinion, verdict: opinion.includes(marker) ? "yes" : "no", reason: "judged" })),
        reason,
      });
    }
    case "summarization_claims_questions": {
      const source = fencedContents(prompt, "source_text")[0] ?? "";
      const marked = [...source.matchAll(/KEY\d+/g)].map((m) => m[0]).slice(0, 5);
      const keys = marked.length > 0 ? marked : ["its main point"];
      return JSON.stringify({
        claims: sentences(output).map((claim) => ({
          claim,
          verdict: pick(
            claim,
            [
              ["WRONG", "no"],
              ["INVENTED", "idk"],
            ],
            "yes",
          ),
          reason: "vs source",
        })),
        questions: givenQuestionCount(body)
          ? Array.from({ length: givenQuestionCount(body) }, (_, i) => ({
              question_index: i + 1,
              source_answer: "yes",
            }))
          : keys.map((key) => ({ question: `Does the text state ${key}?`, source_answer: "yes" })),
        reason,
      });
    }
    case "summarization_summary_answers":
      return JSON.stringify({
        answers: fencedContents(prompt, "question").map((question, i) => {
          const key = /KEY\d+/.exec(question)?.[0];
          const stated = key === undefined ? output.trim() !== "" : output.includes(key);
          return { question_index: i + 1, answer: stated ? "yes" : "idk" };
        }),
      });
    default:
      return undefined;
  }
}

/** The number of assessment questions a run gave, read from the schema's questions (indexed, of fixed length); 0 when generated. */
function givenQuestionCount(body: RequestBody): number {
  const questions = body.response_format?.json_schema?.schema?.properties?.questions;
  return questions?.items?.properties?.question_index ? Number(questions.minItems) : 0;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=\.)\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
