import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConfigSchema } from "@/lib/engine/runConfig";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import { modelNameProblem } from "@/lib/llm/modelName";
import { toJsonl } from "../support/evalFiles";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { spawnEval } from "../support/spawnEval";

// The name that, with Azure, was sent as a request path to the endpoint host with the key header.
const AZURE_ESCAPE = "../../admin/keys?x=";
const AZURE_KEY = "0123456789abcdef0123456789abcdef";

describe("model names", () => {
  it("accepts the names real providers use", () => {
    for (const name of [
      "gpt-4.1-mini",
      "judge-deploy",
      "llama3.1:8b",
      "meta-llama/Llama-3.1-8B-Instruct",
      "o3_mini.v2",
    ])
      expect(modelNameProblem(name), name).toBeNull();
  });

  it("refuses path tricks, queries, spaces and control characters", () => {
    for (const name of [AZURE_ESCAPE, "..", "a/../b", "a/..", "gpt 4", "a?b", "a#b", "a%2e%2e", "a\u200bb", "a\nb", ""])
      expect(modelNameProblem(name), JSON.stringify(name)).not.toBeNull();
    expect(modelNameProblem("a..b")).toBeNull(); // dots inside a segment are fine; only a ".." segment climbs
  });

  it("the run config schema refuses it for the judge and for generation", () => {
    const base = {
      datasetId: "d",
      name: "r",
      metrics: ["correctness"],
      judge: { provider: "azure", model: "judge-deploy" },
    };
    expect(runConfigSchema.safeParse(base).success).toBe(true);
    const judge = runConfigSchema.safeParse({ ...base, judge: { provider: "azure", model: AZURE_ESCAPE } });
    expect(judge.success).toBe(false);
    expect(JSON.stringify(judge.error?.issues)).toContain("'..'");
    const generation = runConfigSchema.safeParse({ ...base, generation: { model: "../../x" } });
    expect(generation.success).toBe(false);
  });

  it("the environment config refuses ASSAY_JUDGE_MODEL with it", () => {
    expect(() =>
      readLlmConfig({
        AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com",
        AZURE_OPENAI_API_KEY: AZURE_KEY,
        ASSAY_JUDGE_MODEL: AZURE_ESCAPE,
      }),
    ).toThrow(/ASSAY_JUDGE_MODEL must be a model or deployment name: .*may contain letters, digits/);
  });
});

describe("the CLI with Azure refuses the name before any request", () => {
  let dir: string;
  let server: FakeOpenAIServer;
  let env: Record<string, string>;
  let datasetFile: string;

  beforeAll(async () => {
    server = await startFakeOpenAIServer({ apiKey: AZURE_KEY });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-model-name-"));
    datasetFile = path.join(dir, "set.jsonl");
    fs.writeFileSync(datasetFile, toJsonl([{ request_id: "a", request: "Q?", response: "A." }]));
    env = {
      DATABASE_URL: `file:${path.join(dir, "cli.db")}`,
      AZURE_OPENAI_ENDPOINT: server.origin,
      AZURE_OPENAI_API_KEY: AZURE_KEY,
    };
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const flag of ["--judge-model", "--generate-model"]) {
    it(`${flag} ${AZURE_ESCAPE}: exit 2, and the fake Azure server saw nothing`, async () => {
      const { code, stderr } = await spawnEval(
        ["--dataset", datasetFile, "--judges", "relevance_to_query", flag, AZURE_ESCAPE, "--quiet"],
        env,
      ).done;
      expect(stderr).toContain(`${flag}: the model name "${AZURE_ESCAPE}" may contain letters, digits`);
      expect(code).toBe(2);
      expect(server.stats.totalRequests).toBe(0);
    });
  }
});
