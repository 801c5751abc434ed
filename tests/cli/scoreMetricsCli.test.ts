import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseEvalArgs } from "@/lib/cli/evalArgs";
import { checkThresholds } from "@/lib/cli/thresholdCheck";
import { DEFAULT_METRICS, metricsOfFamily } from "@/lib/metrics/metricNames";
import { SAMPLE_FILE } from "../support/engineKit";
import type { Responder } from "../support/fakeOpenAIServer";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { spawnEval } from "../support/spawnEval";
import { baseArgs, usageError } from "../support/evalArgsKit";
import { aggregate as aggregateWith } from "../charts/fixtures";

describe("score metrics on the command line", () => {
  it("resolves the family's short names and whole families; all stays the Databricks suite", () => {
    const args = parseEvalArgs([...baseArgs, "--judges", "bleu,context_relevance,hallucination,statistical"]);
    expect(args.metrics).toEqual([
      "response/statistical/bleu",
      "retrieval/llm_judged/context_relevance",
      "response/llm_judged/hallucination",
      "response/statistical/rouge",
      "response/statistical/meteor",
      "response/statistical/levenshtein",
    ]);
    expect(parseEvalArgs(baseArgs).metrics).toEqual(DEFAULT_METRICS);
    expect(DEFAULT_METRICS).not.toContain("response/statistical/bleu");
    expect(parseEvalArgs([...baseArgs, "--judges", "deepeval"]).metrics).toEqual(metricsOfFamily("deepeval"));
    expect(metricsOfFamily("deepeval")).toHaveLength(9);
  });

  it("takes thresholds by short or full name, and context_relevance settings by Mastra's names", () => {
    const args = parseEvalArgs([
      ...baseArgs,
      "--threshold",
      "toxicity=0.2",
      "--threshold",
      "response/statistical/rouge=0.4",
      "--threshold",
      "context_relevance=70",
      "--context-relevance",
      "scale=100",
      "--context-relevance",
      "unusedHighRelevanceContext=0.2",
    ]);
    expect(args.thresholds).toEqual({
      "response/llm_judged/toxicity": 0.2,
      "response/statistical/rouge": 0.4,
      "retrieval/llm_judged/context_relevance": 70,
    });
    expect(args.contextRelevance).toEqual({ scale: 100, unusedHighRelevanceContext: 0.2 });
    expect(usageError([...baseArgs, "--threshold", "bleu=1.5"])).toContain("expected NAME=VALUE with 0 ≤ VALUE ≤ 1");
    expect(usageError([...baseArgs, "--context-relevance", "penalty=0.2"])).toContain(
      "KEY one of unusedHighRelevanceContext, missingContextPerItem, maxMissingContextPenalty, scale",
    );
    expect(usageError([...baseArgs, "--context-relevance", "missingContextPerItem=3"])).toContain(
      "penalties are from 0 to 1",
    );
  });

  it("checks a lower-is-better aggregate against its threshold from below", () => {
    const aggregate = (metric: string, value: number) =>
      aggregateWith(metric, {
        name: `${metric}/score/average`,
        kind: "average",
        value,
        numerator: value,
        denominator: 1,
      });
    const verdicts = checkThresholds(
      [aggregate("response/llm_judged/toxicity", 0.1), aggregate("response/llm_judged/faithfulness", 0.1)],
      { toxicity: 0.2, faithfulness: 0.2 },
    );
    expect(verdicts.map((v) => [v.metric, v.passed])).toEqual([
      ["response/llm_judged/toxicity", true],
      ["response/llm_judged/faithfulness", false],
    ]);
  });
});

/** Rates every chunk high and used except the ones that share no word with the request, which are "none". */
const contextRelevanceJudge: Responder = (body) => {
  const prompt = (body.messages as { role: string; content: string }[]).map((m) => m.content).join("\n");
  const chunks = [...prompt.matchAll(/<untrusted_chunk[^>]*>\n([\s\S]*?)\n<\/untrusted_chunk>/g)].map((m) => m[1]);
  return JSON.stringify({
    evaluations: chunks.map((_, i) => ({
      context_index: i + 1,
      reasoning: "rated",
      relevance_level: i === 0 ? "high" : "none",
      was_used: i === 0,
    })),
    missing_context: [],
    overall_assessment: "The first piece answers the request.",
  });
};

describe("npm run eval with the score metrics on the sample dataset", () => {
  let dir: string;
  let server: FakeOpenAIServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-score-cli-"));
    server = await startFakeOpenAIServer({ responder: contextRelevanceJudge });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses an LLM-only score metric named for the offline judge, before importing anything", async () => {
    const dbFile = path.join(dir, "refused.db");
    const { code, stderr } = await spawnEval(
      ["--dataset", SAMPLE_FILE, "--judges", "bleu,answer_relevancy", "--judge-model", "heuristic", "--quiet"],
      { DATABASE_URL: `file:${dbFile}` },
    ).done;
    expect(code).toBe(2);
    expect(stderr).toContain(
      "answer_relevancy needs an LLM judge: the offline heuristic judge has no honest lexical rule for it",
    );
  });

  it("runs bleu, rouge, meteor, levenshtein offline and context_relevance through the fake server", async () => {
    const out = path.join(dir, "results.json");
    const { code, stdout, stderr } = await spawnEval(
      [
        "--dataset",
        SAMPLE_FILE,
        "--judges",
        "bleu,rouge,meteor,levenshtein,context_relevance",
        "--judge-model",
        "judge-model",
        "--threshold",
        "context_relevance=0.1",
        "--out",
        out,
        "--quiet",
      ],
      {
        DATABASE_URL: `file:${path.join(dir, "cli.db")}`,
        OPENAI_API_KEY: "sk-test-cli-0000",
        OPENAI_BASE_URL: server.url,
      },
    ).done;
    expect(stderr).not.toMatch(/Error/);
    expect(code).toBe(0);
    for (const name of ["bleu", "rouge", "meteor", "levenshtein"]) {
      expect(stdout).toContain(`response/statistical/${name}/score/average`);
      expect(stdout).toContain(`response/statistical/${name}/success/percentage`);
    }
    expect(stdout).toContain("retrieval/llm_judged/context_relevance/score/average");
    expect(stdout).toMatch(/PASS {2}retrieval\/llm_judged\/context_relevance\/score\/average/);
    const results = z
      .object({
        aggregates: z.record(z.string(), z.number().nullable()),
        rows: z.array(z.record(z.string(), z.unknown())),
      })
      .parse(JSON.parse(fs.readFileSync(out, "utf8")));
    // One call per sample row with retrieved context, none for the statistical scorers.
    const judged = results.rows.filter((r) => r["retrieval/llm_judged/context_relevance/score"] !== null).length;
    expect(judged).toBeGreaterThan(0);
    expect(server.stats.totalRequests).toBe(judged);
    const scored = results.rows.filter((r) => r["response/statistical/bleu/score"] !== null);
    expect(scored.length).toBeGreaterThan(0);
    for (const row of scored) expect(row["response/statistical/bleu/reason"]).toMatch(/^BLEU-4 /);
  });
});
