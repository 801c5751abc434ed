import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseEvalArgs } from "@/lib/cli/evalArgs";
import { createDb } from "@/lib/db/client";
import { closeDirectConnection } from "@/lib/db/store/directSqlite";
import { getRun } from "@/lib/db/runs/runQueries";
import { SAMPLE_FILE } from "../support/engineKit";
import { baseArgs, usageError } from "../support/evalArgsKit";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import { startFakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeScoreMetricResponder } from "../support/fakeScoreMetricResponder";
import { spawnEval } from "../support/spawnEval";

describe("npm run eval with DeepEval's options", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-deepeval-cli-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("parses each flag by DeepEval's name into the run's settings, and only the flags given", () => {
    expect(parseEvalArgs(baseArgs).deepEval).toBeUndefined();
    expect(
      parseEvalArgs([
        ...baseArgs,
        "--strict-mode",
        "--no-include-reason",
        "--penalize-ambiguous-claims",
        "--summarization-n",
        "7",
        "--assessment-question",
        "Does it name the price?",
        "--assessment-question",
        "Does it name the plan?",
        "--list-cap",
        "12",
        "--call-structure",
        "deepeval",
        "--truths-extraction-limit",
        "8",
      ]).deepEval,
    ).toEqual({
      strictMode: true,
      includeReason: false,
      penalizeAmbiguousClaims: true,
      summarizationQuestions: 7,
      assessmentQuestions: ["Does it name the price?", "Does it name the plan?"],
      listCap: 12,
      callStructure: "deepeval",
      truthsExtractionLimit: 8,
    });
    expect(usageError([...baseArgs, "--truths-extraction-limit", "0"])).toContain(
      "--truths-extraction-limit: must be a whole number from 1 to 200",
    );
    expect(usageError([...baseArgs, "--list-cap", "3"])).toContain("--list-cap: must be a whole number from 5 to 200");
    expect(usageError([...baseArgs, "--summarization-n", "many"])).toContain(
      "--summarization-n: must be a whole number from 1 to 20",
    );
  });

  it("says the calls of both call structures before it runs, and makes DeepEval's when asked", async () => {
    const server = await startFakeOpenAIServer({
      responder: (body, ctx) => fakeDeepEvalCallsResponder(body, ctx) ?? fakeScoreMetricResponder(body, ctx),
    });
    try {
      const { code, stdout, stderr } = await spawnEval(
        [
          "--dataset",
          SAMPLE_FILE,
          "--judges",
          "faithfulness",
          "--judge-model",
          "judge-model",
          "--call-structure",
          "deepeval",
          "--no-include-reason",
          "--quiet",
        ],
        {
          DATABASE_URL: `file:${path.join(dir, "calls.db")}`,
          OPENAI_API_KEY: "sk-test-calls-0000",
          OPENAI_BASE_URL: server.url,
        },
      ).done;
      expect(code, stderr).toBe(0);
      // 47 sample rows have a response and retrieved context: 3 calls each without the reason, 1 folded.
      expect(stdout).toContain("Estimate: 141 LLM calls,");
      expect(stdout).toContain(
        "DeepEval's own call structure (--call-structure deepeval): 141 LLM calls; folded calls (the default) would make 47.",
      );
      const names = server.requests.map((r) => String(r.body.response_format?.json_schema?.name));
      expect(new Set(names)).toEqual(new Set(["deepeval_truths", "deepeval_claims", "deepeval_claim_verdicts"]));
      expect(names.length).toBeLessThanOrEqual(141);
    } finally {
      await server.close();
    }
    expect(usageError([...baseArgs, "--call-structure", "nested"])).toContain(
      "--call-structure: must be folded or deepeval",
    );
  });

  it("runs DeepEval-exact: DeepEval's calls at the estimate's count, bleu1, no list cap, all said in the export", async () => {
    const server = await startFakeOpenAIServer({
      responder: (body, ctx) => fakeDeepEvalCallsResponder(body, ctx) ?? fakeScoreMetricResponder(body, ctx),
    });
    const out = path.join(dir, "exact.json");
    const url = `file:${path.join(dir, "exact.db")}`;
    try {
      const { code, stdout, stderr } = await spawnEval(
        [
          ...["--dataset", SAMPLE_FILE, "--judges", "faithfulness,bleu", "--judge-model", "judge-model"],
          ...["--deepeval-exact", "--no-include-reason", "--quiet", "--out", out],
        ],
        { DATABASE_URL: url, OPENAI_API_KEY: "sk-test-exact-0000", OPENAI_BASE_URL: server.url },
      ).done;
      expect(code, stderr).toBe(0);
      // DeepEval's calls: 3 a row without the reason (truths, claims, verdicts), as --call-structure deepeval.
      expect(stdout).toContain("Estimate: 141 LLM calls,");
      expect(stdout).toContain(
        "DeepEval-exact (--deepeval-exact): 141 LLM calls; folded calls (the default) would make 47.",
      );
      const names = server.requests.map((r) => String(r.body.response_format?.json_schema?.name));
      expect(new Set(names)).toEqual(new Set(["deepeval_truths", "deepeval_claims", "deepeval_claim_verdicts"]));
      // No list cap: the extracted lists (truths, claims) are unbounded, and no prompt speaks of a cap. (The
      // verdicts are one per claim, a bound of their own.)
      for (const request of server.requests) {
        const name = String(request.body.response_format?.json_schema?.name);
        if (name === "deepeval_truths" || name === "deepeval_claims")
          expect(JSON.stringify(request.body.response_format)).not.toContain('"maxItems"');
        expect(String(request.body.messages[0].content)).not.toContain("merge minor ones");
      }
    } finally {
      await server.close();
    }
    const results = z
      .object({
        run: z.object({
          id: z.string(),
          settings: z.object({ deepeval: z.record(z.string(), z.unknown()), bleu_type: z.string() }),
        }),
      })
      .parse(JSON.parse(fs.readFileSync(out, "utf8")));
    expect(results.run.settings.deepeval).toMatchObject({
      deepeval_exact: true,
      call_structure: "deepeval",
      list_cap: null,
    });
    expect(results.run.settings.bleu_type).toBe("bleu1");
    const db = createDb(url);
    try {
      const stored = (await getRun(db, results.run.id))?.config;
      expect(stored?.deepEval).toEqual({ exact: true, includeReason: false });
      expect(stored?.statistical).toEqual({ bleuType: "bleu1" });
    } finally {
      await db.$disconnect();
      closeDirectConnection(url);
    }
    expect(usageError([...baseArgs, "--deepeval-exact", "--call-structure", "folded"])).toContain(
      "--call-structure: DeepEval-exact makes DeepEval's own calls: leave the call structure unset (or deepeval)",
    );
    expect(usageError([...baseArgs, "--deepeval-exact", "--list-cap", "20"])).toContain(
      "--list-cap: DeepEval-exact has no list cap, as DeepEval has none",
    );
  });

  it("runs strict: binary scores, the strict pass marks, and the options stored with the run and exported", async () => {
    const out = path.join(dir, "strict.json");
    const url = `file:${path.join(dir, "strict.db")}`;
    const { code, stdout, stderr } = await spawnEval(
      [
        "--dataset",
        SAMPLE_FILE,
        "--judges",
        "faithfulness,toxicity",
        "--judge-model",
        "heuristic",
        "--strict-mode",
        "--list-cap",
        "12",
        "--quiet",
        "--out",
        out,
      ],
      { DATABASE_URL: url },
    ).done;
    // Strict pass marks gate the exit code as any other: one faithfulness row short of 1 fails the run (exit 1).
    expect(stdout).toMatch(/FAIL {2}response\/llm_judged\/faithfulness\/score\/average = 0\.\d+ \(threshold 1\)/);
    expect(stdout).toMatch(/PASS {2}response\/llm_judged\/toxicity\/score\/average = 0\.000 \(threshold 0\)/);
    expect(code, stderr).toBe(1);
    const results = z
      .object({
        run: z.object({
          id: z.string(),
          settings: z.object({
            thresholds: z.record(z.string(), z.number()),
            deepeval: z.record(z.string(), z.unknown()),
          }),
        }),
        rows: z.array(z.record(z.string(), z.unknown())),
      })
      .parse(JSON.parse(fs.readFileSync(out, "utf8")));
    expect(results.run.settings.deepeval).toMatchObject({ strict_mode: true, list_cap: 12, include_reason: true });
    expect(results.run.settings.thresholds).toMatchObject({
      "response/llm_judged/faithfulness": 1,
      "response/llm_judged/toxicity": 0,
    });
    const scores = results.rows
      .flatMap((row) => [row["response/llm_judged/faithfulness/score"], row["response/llm_judged/toxicity/score"]])
      .filter((score) => score !== null && score !== undefined);
    expect(scores.length).toBeGreaterThan(0);
    expect(new Set(scores.map(Number)).size).toBeLessThanOrEqual(2);
    expect(scores.every((score) => score === 0 || score === 1)).toBe(true);
    const db = createDb(url);
    try {
      expect((await getRun(db, results.run.id))?.config.deepEval).toEqual({ strictMode: true, listCap: 12 });
    } finally {
      await db.$disconnect();
      closeDirectConnection(url);
    }
  });
});
