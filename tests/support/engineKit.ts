import path from "node:path";
import type { Db } from "@/lib/db/client";
import { createDatasetSink } from "@/lib/db/datasets/datasetWrites";
import { getRun } from "@/lib/db/runs/runQueries";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import type { RunConfigInput } from "@/lib/engine/runConfig";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { ingestFile } from "@/lib/ingest/ingestFile";
import { ingestUpload } from "@/lib/ingest/ingestUpload";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import { byteChunks, toJsonl, type EvalObject } from "./evalFiles";

export const SAMPLE_FILE = path.resolve(import.meta.dirname, "../../prisma/sample/sample-eval-set.jsonl");

export async function importRows(db: Db, rows: EvalObject[]): Promise<string> {
  const result = await ingestUpload({
    chunks: byteChunks(toJsonl(rows), 65536),
    filename: "rows.jsonl",
    mode: "strict",
    sink: createDatasetSink(db),
  });
  if (!result.ok) throw new Error(`rows did not import: ${JSON.stringify(result.issues)}`);
  return result.datasetId;
}

export async function importSample(db: Db): Promise<string> {
  const result = await ingestFile(SAMPLE_FILE, { mode: "strict", sink: createDatasetSink(db) });
  if (!result.ok) throw new Error("sample did not import");
  return result.datasetId;
}

/** An LLM config pointing at the fake server, with fast retries for tests. */
export function fakeLlmConfig(baseUrl: string, overrides: Record<string, string> = {}) {
  const config = readLlmConfig({
    OPENAI_API_KEY: "sk-test-engine-key-0000",
    OPENAI_BASE_URL: baseUrl,
    ASSAY_LLM_TIMEOUT_MS: "2000",
    ASSAY_LLM_MAX_ATTEMPTS: "4",
    ...overrides,
  });
  if (!config) throw new Error("fake LLM config did not parse");
  return config;
}

/** A run as the engine reads it (config and tags decoded); throws when it does not exist. */
export async function readRun(db: Db, runId: string) {
  const run = await getRun(db, runId);
  if (!run) throw new Error(`run ${runId} does not exist`);
  return run;
}

/** Creates and executes a run end to end, returning its id and outcome. */
export async function runToCompletion(db: Db, config: RunConfigInput, llmBaseUrl: string | null) {
  const runId = await createRun(db, config);
  const run = await readRun(db, runId);
  const deps = createEngineDeps(db, run, { llmConfig: llmBaseUrl ? fakeLlmConfig(llmBaseUrl) : null });
  const outcome = await runEvaluation(run, deps);
  return { runId, outcome };
}
