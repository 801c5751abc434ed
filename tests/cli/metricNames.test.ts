import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEvalArgs } from "@/lib/cli/evalArgs";
import { checkThresholds } from "@/lib/cli/thresholdCheck";
import { createDb } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import { spawnEval } from "../support/spawnEval";
import { baseArgs, usageError } from "../support/evalArgsKit";
import { aggregate as aggregateWith } from "../charts/fixtures";

describe("metric names on the command line", () => {
  it("accepts the input schema's names as aliases of the canonical ones, in --judges and --threshold", () => {
    const args = parseEvalArgs([
      ...baseArgs,
      "--judges",
      "agent/input_token_count,agent/output_token_count,retrieval/llm_judged/chunk_relevance_precision",
      "--threshold",
      "retrieval/llm_judged/chunk_relevance_precision=0.7",
      "--threshold",
      "chunk_relevance_precision=0.6",
    ]);
    expect(args.metrics).toEqual([
      "agent/total_input_token_count",
      "agent/total_output_token_count",
      "retrieval/llm_judged/chunk_relevance",
    ]);
    expect(args.thresholds).toEqual({ "retrieval/llm_judged/chunk_relevance": 0.6 });
  });

  it("accepts short names and full names alike", () => {
    const args = parseEvalArgs([
      ...baseArgs,
      "--judges",
      "correctness,response/llm_judged/safety,input_token_count,llm_judged/groundedness",
      "--threshold",
      "response/llm_judged/correctness=0.8",
      "--threshold",
      "safety=1",
    ]);
    expect(args.metrics).toEqual([
      "response/llm_judged/correctness",
      "response/llm_judged/safety",
      "agent/total_input_token_count",
      "response/llm_judged/groundedness",
    ]);
    expect(args.thresholds).toEqual({ "response/llm_judged/correctness": 0.8, "response/llm_judged/safety": 1 });
  });

  it("rejects an unknown name with a message that lists the valid ones", () => {
    for (const message of [
      usageError([...baseArgs, "--judges", "correctness,fluency"]),
      usageError([...baseArgs, "--threshold", "fluency=0.5"]),
    ]) {
      expect(message).toMatch(
        /unknown judge "fluency"; known: correctness, relevance_to_query, groundedness, safety, chunk_relevance, context_sufficiency, document_recall, total_token_count, total_input_token_count, total_output_token_count, latency_seconds/,
      );
      expect(message).toContain(
        "agent/input_token_count, agent/output_token_count, retrieval/llm_judged/chunk_relevance_precision",
      );
    }
    expect(usageError([...baseArgs, "--threshold", "correctness=2"])).toContain(
      "expected NAME=VALUE with 0 ≤ VALUE ≤ 1",
    );
  });

  it("checks a threshold stored under any accepted spelling against the canonical aggregate", () => {
    const aggregate = aggregateWith("retrieval/llm_judged/chunk_relevance", {
      name: "retrieval/llm_judged/chunk_relevance/precision/average",
      kind: "average",
      value: 0.75,
      numerator: 1.5,
      denominator: 2,
      passed: 2,
    });
    expect(checkThresholds([aggregate], { chunk_relevance_precision: 0.7 })).toEqual([
      {
        metric: "retrieval/llm_judged/chunk_relevance",
        aggregateName: "retrieval/llm_judged/chunk_relevance/precision/average",
        threshold: 0.7,
        value: 0.75,
        passed: true,
      },
    ]);
  });

  describe("npm run eval", () => {
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-cli-names-"));
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("runs with the aliases, stores canonical names, and applies an alias threshold", async () => {
      const file = path.join(dir, "set.jsonl");
      fs.writeFileSync(
        file,
        toJsonl([
          {
            request_id: "a",
            request: "How do I rotate access keys?",
            response: "Rotate them in the console.",
            retrieved_context: [{ content: "Rotate access keys in the console under Security.", doc_uri: "keys" }],
          },
        ]),
      );
      const env = { DATABASE_URL: `file:${path.join(dir, "cli.db")}` };
      const { code, stdout, stderr } = await spawnEval(
        [
          "--dataset",
          file,
          "--judges",
          "retrieval/llm_judged/chunk_relevance_precision,agent/output_token_count",
          "--threshold",
          "retrieval/llm_judged/chunk_relevance_precision=0.5",
          "--judge-model",
          "heuristic",
          "--quiet",
        ],
        env,
      ).done;
      expect(stderr).toBe("");
      expect(stdout).toMatch(
        /PASS\s+retrieval\/llm_judged\/chunk_relevance\/precision\/average = 1\.000 \(threshold 0\.5\)/,
      );
      expect(code).toBe(0);
      const db = createDb(env.DATABASE_URL);
      const run = await db.run.findFirstOrThrow();
      expect(JSON.parse(run.config)).toMatchObject({
        metrics: ["retrieval/llm_judged/chunk_relevance", "agent/total_output_token_count"],
        thresholds: { "retrieval/llm_judged/chunk_relevance": 0.5 },
      });
      await db.$disconnect();
    }, 60_000);
  });
});
