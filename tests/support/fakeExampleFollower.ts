import type { Responder } from "./fakeOpenAIServer";
import { fencedContents } from "./fenced";

/**
 * A fake judge model for aligned judges: with no labelled examples in its prompt it answers "yes" (a G-Eval
 * judge its top score); with examples, the answer of the example whose text shares the most words with
 * the content it judges (a G-Eval judge: the top score for yes, the bottom for no). So the examples carry
 * the people's labels into its verdicts, and nothing else does. It answers the single yes/no verdicts
 * (custom and built-in judges), the per-chunk verdicts (each chunk like its closest example), G-Eval's
 * steps and score, and an alignment's guidance draft.
 */
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);

/** The guidance a draft returns: recognisable in the prompts that use it. */
export const FAKE_GUIDANCE = "A response that brushes the user off is not helpful, however short.";

export const fakeExampleFollower: Responder = (body) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? "";
  if (schemaName === "alignment_guidance") return JSON.stringify({ guidance: FAKE_GUIDANCE });
  if (schemaName === "g_eval_steps") return JSON.stringify({ steps: ["Read the output.", "Score its tone."] });
  const single = schemaName.endsWith("_verdict") && schemaName !== "correctness_facts_verdict";
  const perChunk = schemaName.endsWith("_verdicts");
  if (!single && !perChunk && schemaName !== "g_eval_score") return undefined;
  const user = (body.messages as { role: string; content: string }[])
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  if (perChunk) {
    // Each chunk of the content to judge, like the closest example (an example's text names its chunk).
    const judged = user.slice(Math.max(0, user.lastIndexOf("The content to judge:")));
    const verdicts = fencedContents(judged, "chunk").map((chunk, i) => ({
      chunk_index: i + 1,
      rationale: "like the closest example",
      rating: followExamples(user, chunk) ?? "yes",
    }));
    return JSON.stringify({ verdicts });
  }
  const rating = followExamples(user);
  if (schemaName !== "g_eval_score")
    return JSON.stringify({
      rationale: rating === null ? "default" : "like the closest example",
      rating: rating ?? "yes",
    });
  const range = body.response_format?.json_schema?.schema?.properties?.score ?? {};
  const [min, max] = [Number(range.minimum ?? 1), Number(range.maximum ?? 5)];
  return JSON.stringify({ reason: "scored like the closest example", score: rating === "no" ? min : max });
};

/** The closest example's answer to `content` (by default the response judged), or null with no examples. */
function followExamples(user: string, content?: string): "yes" | "no" | null {
  const examples = fencedContents(user, "example");
  if (examples.length === 0) return null;
  const judged = user.slice(user.lastIndexOf("The content to judge:"));
  const mine = words(
    content ??
      fencedContents(judged, "response")[0] ??
      fencedContents(judged, "actual_output")[0] ??
      fencedContents(judged, "chunk")[0] ??
      "",
  );
  const shared = (example: string) =>
    [...words(example.split("The person's answer")[0])].filter((w) => mine.has(w)).length;
  const closest = examples.reduce((best, example) => (shared(example) > shared(best) ? example : best));
  return /The person's answer: (yes|no)/.exec(closest)?.[1] === "no" ? "no" : "yes";
}
