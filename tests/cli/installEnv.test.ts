import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CI_RUN = path.resolve(import.meta.dirname, "../../.ci/run");

/** The variables .ci/run exports for the install, with their default values. */
function installEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const match of fs.readFileSync(CI_RUN, "utf8").matchAll(/^export (\w+)="\$\{\w+:-([^}]*)\}"$/gm))
    env[match[1]] = match[2];
  return env;
}

describe("the offline-install setting in .ci/run", () => {
  it("gives node-gyp Node's headers through a variable npm does not warn about", () => {
    const env = installEnv();
    expect(env).toEqual({ npm_package_config_node_gyp_nodedir: "/usr" });
    // Without the machine's ~/.npmrc and without npm_config_* from outside, so only what .ci/run sets is seen.
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const key of Object.keys(childEnv)) if (/^npm_/i.test(key) && !(key in env)) delete childEnv[key];
    const npm = spawnSync("npm", ["--version", "--userconfig=/dev/null"], { env: childEnv, encoding: "utf8" });
    expect(npm.status).toBe(0);
    expect(npm.stderr).not.toContain("Unknown");
  });

  it("is a variable npm's own node-gyp reads as its nodedir option", () => {
    const npmRoot = execFileSync("npm", ["root", "-g", "--userconfig=/dev/null"], { encoding: "utf8" }).trim();
    const source = fs.readFileSync(path.join(npmRoot, "npm/node_modules/node-gyp/lib/node-gyp.js"), "utf8");
    expect(source).toContain("npm_package_config_node_gyp_");
  });
});
