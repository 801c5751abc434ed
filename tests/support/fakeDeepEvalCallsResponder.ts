import type { Responder } from "./fakeOpenAIServer";
import { fencedContents } from "./fenced";

/**
 * Makes the fake OpenAI server answer DeepEval's own call structure (lib/judges/deepEvalCalls) with the
 * same markers as fakeScoreMetricResponder, so a row scores the same in both structures:
 *   truths / claims / statements   the sentences (split on ". ") of the one text the call reads
 *   opinions                       the actual output's sentences with OPINION
 *   claim verdicts                 CONTRADICTS or WRONG → no, UNKNOWN or INVENTED → idk, else yes
 *   statement verdicts             OFFTOPIC → no, MAYBE → idk, else yes
 *   toxicity / bias verdicts       TOXIC / BIASED → yes
 *   node verdicts, node statements IRRELEVANT → no
 *   questions                      one per KEYn of the source (at most n), "Does the text state KEYn?"
 *   answers                        yes when the text read says the question's KEYn, else idk
 *   reason                         "deepeval_reason: <the points' count> points"
 * Any other request gets undefined.
 */
export const fakeDeepEvalCallsResponder: Responder = (body) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? "";
  if (!schemaName.startsWith("deepeval_")) return undefined;
  const prompt = (body.messages as { role: string; content: string }[])
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  const output = fencedContents(prompt, "actual_output")[0] ?? "";
  const marked = (text: string, marks: [string, string][], otherwise: string) =>
    marks.find(([marker]) => text.includes(marker))?.[1] ?? otherwise;
  const verdicts = (name: string, judge: (item: string) => string) =>
    JSON.stringify({
      verdicts: fencedContents(prompt, name).map((item, i) => ({
        index: i + 1,
        verdict: judge(item),
        reason: `${name} ${i + 1}`,
      })),
    });
  switch (schemaName) {
    case "deepeval_truths": {
      const source = [...fencedContents(prompt, "retrieval_node"), ...fencedContents(prompt, "source_text")].join(" ");
      return JSON.stringify({ truths: sentences(source) });
    }
    case "deepeval_claims":
      return JSON.stringify({ claims: sentences(output) });
    case "deepeval_statements":
      return JSON.stringify({ statements: sentences(output) });
    case "deepeval_opinions":
      return JSON.stringify({ opinions: sentences(output).filter((s) => s.includes("OPINION")) });
    case "deepeval_claim_verdicts":
      return verdicts("claim", (claim) =>
        marked(
          claim,
          [
            ["CONTRADICTS", "no"],
            ["WRONG", "no"],
            ["UNKNOWN", "idk"],
            ["INVENTED", "idk"],
          ],
          "yes",
        ),
      );
    case "deepeval_statement_verdicts":
      return verdicts("statement", (statement) =>
        marked(
          statement,
          [
            ["OFFTOPIC", "no"],
            ["MAYBE", "idk"],
          ],
          "yes",
        ),
      );
    case "deepeval_toxicity_verdicts":
      return verdicts("opinion", (opinion) => (opinion.includes("TOXIC") ? "yes" : "no"));
    case "deepeval_bias_verdicts":
      return verdicts("opinion", (opinion) => (opinion.includes("BIASED") ? "yes" : "no"));
    case "deepeval_node_verdicts":
      return verdicts("retrieval_node", (node) => (node.includes("IRRELEVANT") ? "no" : "yes"));
    case "deepeval_node_statements":
      return JSON.stringify({
        statements: sentences(fencedContents(prompt, "retrieval_node")[0] ?? "").map((statement) => ({
          statement,
          verdict: statement.includes("IRRELEVANT") ? "no" : "yes",
          reason: "vs input",
        })),
      });
    case "deepeval_questions": {
      const count = Number(body.response_format?.json_schema?.schema?.properties?.questions?.maxItems ?? 5);
      const keys = [...(fencedContents(prompt, "source_text")[0] ?? "").matchAll(/KEY\d+/g)].map((m) => m[0]);
      const questions = (keys.length > 0 ? keys : ["its main point"]).slice(0, count);
      return JSON.stringify({ questions: questions.map((key) => `Does the text state ${key}?`) });
    }
    case "deepeval_answers": {
      const text = fencedContents(prompt, "source_text")[0] ?? output;
      return JSON.stringify({
        answers: fencedContents(prompt, "question").map((question, i) => {
          const key = /KEY\d+/.exec(question)?.[0];
          return {
            index: i + 1,
            answer: (key === undefined ? text.trim() !== "" : text.includes(key)) ? "yes" : "no",
          };
        }),
      });
    }
    case "deepeval_reason":
      return JSON.stringify({ reason: `deepeval_reason: ${fencedContents(prompt, "point").length} points` });
    default:
      return undefined;
  }
};

function sentences(text: string): string[] {
  return text
    .split(/(?<=\.)\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
