import type { Dialect } from "@/lib/db/store/dialect";
import { startFakeOpenAIServer, type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { openApp, type OpenedApp } from "./helpers";

/** The built app judging through a fake OpenAI server on 127.0.0.1; close() stops both. */
export type FakeLlmApp = OpenedApp & { fake: FakeOpenAIServer };

/**
 * Starts the fake OpenAI server (so the openai SDK is exercised for real) and the app pointed at it, with
 * the judge model "fake-judge" unless `env` says otherwise.
 */
export async function openAppWithFakeLlm(options: {
  responder: Responder;
  latencyMs?: number;
  env?: Record<string, string>;
  store?: Dialect;
}): Promise<FakeLlmApp> {
  const fake = await startFakeOpenAIServer({
    responder: options.responder,
    behaviour: { latencyMs: options.latencyMs ?? 0 },
  });
  try {
    const app = await openApp({
      store: options.store,
      env: {
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: "sk-e2e-fake-key-0000",
        ASSAY_JUDGE_MODEL: "fake-judge",
        ...options.env,
      },
    });
    return {
      ...app,
      fake,
      close: async () => {
        await app.close();
        await fake.close();
      },
    };
  } catch (error) {
    await fake.close();
    throw error;
  }
}
