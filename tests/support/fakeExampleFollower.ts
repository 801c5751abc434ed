import type { Responder } from "./fakeOpenAIServer";
import { fencedContents } from "./fenced";

/**
 * A fake judge model for aligned judges (custom ANSWER verdicts): "yes" when its prompt holds no labelled
 * examples; otherwise the answer of the example whose text shares the most words with the response it
 * judges. So the examples carry the people's labels into its verdicts, and nothing else does.
 */
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);

export const fakeExampleFollower: Responder = (body) => {
  if (body.response_format?.json_schema?.name !== "custom_answer_verdict") return undefined;
  const user = (body.messages as { role: string; content: string }[]).map((m) => m.content).join("\n");
  const examples = fencedContents(user, "example");
  if (examples.length === 0) return JSON.stringify({ rationale: "default", rating: "yes" });
  const mine = words(fencedContents(user, "response")[0] ?? "");
  const shared = (example: string) =>
    [...words(example.split("The person's answer")[0])].filter((w) => mine.has(w)).length;
  const closest = examples.reduce((best, example) => (shared(example) > shared(best) ? example : best));
  const rating = /The person's answer: (yes|no)/.exec(closest)?.[1] ?? "yes";
  return JSON.stringify({ rationale: "like the closest example", rating });
};
