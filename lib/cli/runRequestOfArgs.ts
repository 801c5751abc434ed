import type { RunRequestInput } from "@/lib/engine/runRequest";
import { HEURISTIC_MODEL } from "@/lib/contract/offlineJudge";
import type { EvalArgs } from "./evalArgs";

/** Whether --judge-model names the offline heuristic judge ("heuristic", or its model name). */
export function namesOfflineJudge(judgeModel: string | undefined): boolean {
  return judgeModel === "heuristic" || judgeModel === HEURISTIC_MODEL;
}

/**
 * The run request the command line asks for (lib/engine/runRequest.ts): the JSON the CLI sends to
 * `POST /api/v1/runs` with --server, and the request it turns into the run's config itself without one, so
 * both ask for the same run. `judge` is decided by the caller: here, whether this machine has a model endpoint;
 * for a server, whether --judge-model names the offline judge.
 */
export function runRequestOfArgs(args: EvalArgs, datasetId: string, judge: "heuristic" | "model"): RunRequestInput {
  return {
    datasetId,
    name: args.name,
    tags: args.tags,
    metrics: args.metrics,
    judge,
    ...(judge === "model" && args.judgeModel ? { judgeModel: args.judgeModel } : {}),
    concurrency: args.concurrency,
    trials: args.trials,
    chunkMode: args.chunkMode,
    thresholds: args.thresholds,
    ...(Object.keys(args.contextRelevance).length > 0 ? { contextRelevance: args.contextRelevance } : {}),
    ...(args.rougeType || args.bleuType ? { statistical: { rougeType: args.rougeType, bleuType: args.bleuType } } : {}),
    ...(args.deepEval ? { deepEval: args.deepEval } : {}),
    ...(args.toolCalls ? { toolCalls: args.toolCalls } : {}),
    ...(args.conversation ? { conversation: args.conversation } : {}),
    gEvalJudges: args.gEvalJudges,
    customJudges: args.customJudges,
    ...(args.generateModel ? { generation: { model: args.generateModel, systemPrompt: args.systemPrompt } } : {}),
    budget: args.budget,
  };
}
