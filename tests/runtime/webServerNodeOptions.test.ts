// The web server's start flags (lib/runtime/webServerNodeOptions.ts): Node accepts them in NODE_OPTIONS, they
// hold V8's young generation at 8 MB where a process whose young objects survive a while grows it to 32, and
// the caller's own NODE_OPTIONS stay, after them.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { webServerNodeOptions } from "@/lib/runtime/webServerNodeOptions";

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

describe("the web server's NODE_OPTIONS", () => {
  it("hold the young generation at 8 MB where V8 lets it grow past that", () => {
    expect(newSpaceMb(undefined)).toBeGreaterThan(8);
    expect(newSpaceMb(webServerNodeOptions(undefined))).toBeLessThanOrEqual(8);
  });

  it("keep the caller's NODE_OPTIONS after their own, so the caller's flag wins", () => {
    expect(webServerNodeOptions("--max-semi-space-size=16 --enable-source-maps")).toBe(
      "--max-semi-space-size=4 --max-semi-space-size=16 --enable-source-maps",
    );
    expect(newSpaceMb(webServerNodeOptions("--max-semi-space-size=16"))).toBeGreaterThan(8);
    expect(webServerNodeOptions(undefined)).toBe("--max-semi-space-size=4");
  });
});
