import type { Db } from "@/lib/db/client";
import { createJudgeCache } from "@/lib/db/judgeCache/judgeCacheRepository";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import { createLlmJudgeBackend } from "@/lib/judges/llmJudgeBackend";
import { makeClient, openAiConfig } from "../llm/llmTestKit";
import { startFakeOpenAIServer, type FakeOpenAIServer, type Responder } from "./fakeOpenAIServer";
import { createTempDb } from "./tempDb";

/**
 * The LLM judge backend as a run builds it, on real parts: the openai SDK through the client, a fake
 * OpenAI server answering with `responder`, and a judge cache in a temporary SQLite file.
 */
export async function openFakeLlmBackend(responder: Responder): Promise<{
  db: Db;
  server: FakeOpenAIServer;
  backend: JudgeBackend;
  close: () => Promise<void>;
}> {
  const { db, cleanup } = await createTempDb();
  const server = await startFakeOpenAIServer({ responder });
  const backend = createLlmJudgeBackend({
    llm: makeClient(openAiConfig(server.url)).client,
    cache: createJudgeCache(db),
  });
  return {
    db,
    server,
    backend,
    close: async () => {
      await server.close();
      await cleanup();
    },
  };
}
