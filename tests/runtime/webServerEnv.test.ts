// What the web server is started with (lib/runtime/webServerEnv.ts): Node accepts its flags in NODE_OPTIONS,
// they hold V8's young generation at 8 MB where a process whose young objects survive a while grows it to 32,
// and what the caller set itself wins.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { webServerEnv } from "@/lib/runtime/webServerEnv";

// Objects that live through a few young collections (a window of the last 25,000 to 50,000) are what make V8
// grow its young generation, as a server's requests in flight do.
const NEW_SPACE_AFTER_SURVIVORS = `
  const v8 = require("node:v8");
  let window = [];
  for (let i = 0; i < 400000; i++) {
    window.push({ i, text: "x".repeat(100) + i });
    if (window.length > 50000) window = window.slice(25000);
  }
  const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
  console.log(JSON.stringify({ newSpaceMb: newSpace.space_size / 1048576, kept: window.length }));
`;

function newSpaceMb(nodeOptions: string | undefined): number {
  const env = { ...process.env };
  if (nodeOptions === undefined) delete env.NODE_OPTIONS;
  else env.NODE_OPTIONS = nodeOptions;
  const child = spawnSync(process.execPath, ["-e", NEW_SPACE_AFTER_SURVIVORS], { env, encoding: "utf8" });
  expect(child.stderr).toBe("");
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout).newSpaceMb;
}

describe("the web server's start environment", () => {
  it("holds the young generation at 8 MB where V8 lets it grow past that", () => {
    expect(newSpaceMb(undefined)).toBeGreaterThan(8);
    expect(newSpaceMb(webServerEnv({}).NODE_OPTIONS)).toBeLessThanOrEqual(8);
  });

  it("puts the caller's NODE_OPTIONS after its own, so the caller's flag wins", () => {
    expect(webServerEnv({ NODE_OPTIONS: "--max-semi-space-size=16 --enable-source-maps" }).NODE_OPTIONS).toBe(
      "--max-semi-space-size=4 --max-semi-space-size=16 --enable-source-maps",
    );
    expect(newSpaceMb(webServerEnv({ NODE_OPTIONS: "--max-semi-space-size=16" }).NODE_OPTIONS)).toBeGreaterThan(8);
  });

  it("gives malloc two arenas that trim above 64 KB, unless the caller chose otherwise", () => {
    expect(webServerEnv({})).toEqual({
      NODE_OPTIONS: "--max-semi-space-size=4",
      MALLOC_ARENA_MAX: "2",
      MALLOC_TRIM_THRESHOLD_: "65536",
    });
    const chosen = webServerEnv({ MALLOC_ARENA_MAX: "4", MALLOC_TRIM_THRESHOLD_: "0" });
    expect([chosen.MALLOC_ARENA_MAX, chosen.MALLOC_TRIM_THRESHOLD_]).toEqual(["4", "0"]);
  });
});
