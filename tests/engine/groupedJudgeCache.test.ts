import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createJudgeCache } from "@/lib/db/judgeCache/judgeCacheRepository";
import { groupedJudgeCache } from "@/lib/engine/groupedJudgeCache";
import { createTempDb } from "../support/tempDb";

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

const entry = (key: string, response: string) => ({
  key,
  model: "m",
  promptVersion: "v1",
  response,
  inputTokens: 10,
  outputTokens: 2,
});

describe("the engine's judge cache, written in groups", () => {
  it("stores every answer of a group before any of their puts resolves, and reads them back", async () => {
    const cache = groupedJudgeCache(db);
    const direct = createJudgeCache(db);
    const keys = ["g-1", "g-2", "g-3"];
    await Promise.all(keys.map((key) => cache.put(entry(key, `{"answer":"${key}"}`))));
    for (const key of keys) {
      expect(await direct.get(key)).toEqual({ response: `{"answer":"${key}"}`, inputTokens: 10, outputTokens: 2 });
      expect(await cache.get(key)).toEqual(await direct.get(key));
    }
  });

  it("keeps the first answer to a prompt, and replaces it only when asked (a second opinion)", async () => {
    const cache = groupedJudgeCache(db);
    await Promise.all([cache.put(entry("k-1", "first")), cache.put(entry("k-1", "again"))]);
    expect((await cache.get("k-1"))?.response).toBe("first");
    await cache.put(entry("k-1", "second opinion"), { replace: true });
    expect((await cache.get("k-1"))?.response).toBe("second opinion");
  });
});
