import { describe, expect, it } from "vitest";
import { labelReadsResponse, responseReadingMetrics } from "@/lib/contract/responseReading";

describe("which labels judged the response", () => {
  const judges = {
    customJudges: [
      { assessmentName: "tone", assessmentType: "ANSWER" },
      { assessmentName: "on_topic_chunk", assessmentType: "RETRIEVAL" },
    ],
    gEvalJudges: [
      { name: "clarity", threshold: 0.5, evaluationParams: ["input", "actual_output"] },
      { name: "question_quality", threshold: 0.5, evaluationParams: ["input", "retrieval_context"] },
    ],
  };

  it("catalogue metrics by whether they require the response", () => {
    expect(labelReadsResponse("response/llm_judged/correctness", -1, judges)).toBe(true);
    expect(labelReadsResponse("retrieval/llm_judged/context_sufficiency", -1, judges)).toBe(false);
    expect(labelReadsResponse("retrieval/llm_judged/chunk_relevance", 0, judges)).toBe(false);
  });

  it("a run's custom ANSWER judge and a G-Eval judge given actual_output; never a chunk", () => {
    expect(labelReadsResponse("response/llm_judged/tone", -1, judges)).toBe(true);
    expect(labelReadsResponse("retrieval/llm_judged/on_topic_chunk", 0, judges)).toBe(false);
    expect(labelReadsResponse("response/llm_judged/g_eval/clarity", -1, judges)).toBe(true);
    expect(labelReadsResponse("response/llm_judged/g_eval/question_quality", -1, judges)).toBe(false);
    expect(labelReadsResponse("response/llm_judged/tone", 0, judges)).toBe(false);
  });

  it("lists the dataset's response-reading metrics for the label file's import", () => {
    const reading = responseReadingMetrics(judges);
    expect(reading).toContain("response/llm_judged/tone");
    expect(reading).toContain("response/llm_judged/g_eval/clarity");
    expect(reading).not.toContain("response/llm_judged/g_eval/question_quality");
    expect(reading).not.toContain("retrieval/llm_judged/context_sufficiency");
  });
});
