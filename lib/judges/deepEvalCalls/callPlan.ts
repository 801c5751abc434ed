import type { DeepEvalSettings } from "@/lib/contract/deepEvalSettings";
import type { ScoreMetricSettings } from "../judgeBackend";
import { listCapNotes } from "../prompts/scoreMetrics/shared";
import type { PromptCall } from "../prompts/promptTemplate";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../types";
import { reasonStep, type ReasonContext } from "./reasonStep";

/**
 * A metric judged with DeepEval's own call structure: a sequence of calls, some side by side, each
 * seeing only what DeepEval's call sees, ending in the verdict. The plan says which calls and in what
 * order; the judge backend makes each call (cached, limited and retried like any other) through `call`,
 * which throws a CallFailed when a call ends without an answer: the row is then an error naming that call.
 */
export type StepRunner = <T, C>(step: PromptCall<T, C>, context: C) => Promise<T>;

/** `run`: the run's other per-metric settings (MLflow's conversational guidelines, the tool-call options). */
export type PlanContext = {
  input: JudgeInput;
  settings: DeepEvalSettings;
  call: StepRunner;
  run?: ScoreMetricSettings;
};

export type CallPlan = (context: PlanContext) => Promise<JudgeVerdict>;

export class CallFailed extends Error {
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(message);
    this.name = "CallFailed";
  }
}

/** Calls side by side, as DeepEval gathers them; every call settles (and is accounted for) before a failure is thrown. */
export async function together<T extends readonly unknown[]>(calls: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : null)) as unknown as T;
}

/** DeepEval's reason call, made only when the run asks for a reason. */
export async function reasonFor(context: PlanContext, reason: ReasonContext): Promise<string | undefined> {
  if (!context.settings.includeReason) return undefined;
  return (await context.call(reasonStep, reason)).reason;
}

/** Truths cut by truths_extraction_limit (or the list cap) say so: the score was judged against fewer. */
/** What the truths' list says of its limits: truths_extraction_limit per document, else the list cap. */
export function truthsNotes(settings: DeepEvalSettings, truths: number, documents: number): string[] {
  const limit = settings.truthsExtractionLimit;
  if (limit !== null && truths >= limit * Math.max(1, documents))
    return [
      `The truths were limited to the ${limit} most important per document (truths_extraction_limit), ${documents === 1 ? "1 document" : `${documents} documents`}.`,
    ];
  return listCapNotes(settings.listCap, { truths });
}
