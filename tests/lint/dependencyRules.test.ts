import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { cruise, type IConfiguration, type ICruiseResult } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The rules `npm run lint` checks (.dependency-cruiser.cjs), applied to a small tree of their own that breaks each
// of them once, beside imports they allow: what the lint reports is each broken rule and nothing else.
const config = createRequire(import.meta.url)("../../.dependency-cruiser.cjs") as IConfiguration;

const TREE: Record<string, string> = {
  "tsconfig.json": JSON.stringify({
    // The project's tsconfig has no baseUrl, and depcruise then takes its paths from the working directory: the
    // fixture, cruised from elsewhere, names its own.
    compilerOptions: { module: "esnext", moduleResolution: "bundler", baseUrl: ".", paths: { "@/*": ["./*"] } },
  }),
  "node_modules/left-pad/package.json": JSON.stringify({ name: "left-pad", version: "1.0.0", main: "index.js" }),
  "node_modules/left-pad/index.js": "module.exports = (text) => text;\n",

  // Allowed: the contract imports itself, packages and Node's modules; the store imports the contract, lib/stats,
  // itself, packages and Node's modules.
  "lib/contract/names.ts":
    'import { createHash } from "node:crypto";\nimport pad from "left-pad";\nexport const NAME = pad(createHash("sha256").digest("hex"));\n',
  "lib/contract/alias.ts": 'export { NAME } from "./names";\n',
  "lib/stats/mean.ts": "export const mean = (values: number[]) => values.length;\n",
  "lib/db/other.ts": "export const other = 1;\n",
  "lib/db/repository.ts": [
    'import fs from "node:fs";',
    'import pad from "left-pad";',
    'import { NAME } from "@/lib/contract/alias";',
    'import { mean } from "../stats/mean";',
    'import { other } from "./other";',
    "export const row = [fs.existsSync(pad(NAME)), mean([other])];",
    "",
  ].join("\n"),

  // contract-imports-nothing-of-lib, by a type-only import through the alias.
  "lib/contract/reachesUp.ts": 'import type { Judge } from "@/lib/judges/judge";\nexport type Named = Judge;\n',
  "lib/judges/judge.ts": "export type Judge = { name: string };\nexport const judge = 1;\n",
  // db-imports-only-contract, by a dynamic import().
  "lib/db/reachesUp.ts": 'export async function loadCatalog() {\n  return import("@/lib/metrics/catalog");\n}\n',
  "lib/metrics/catalog.ts": "export const catalog = [];\n",
  // llm-no-judges, by a relative path.
  "lib/llm/client.ts": 'import { judge } from "../judges/judge";\nexport const client = judge;\n',
  // lib-no-app.
  "lib/engine/page.ts": 'import { Button } from "@/components/Button";\nexport const page = Button;\n',
  "components/Button.ts": "export const Button = 1;\n",
  // no-circular, through a type-only import one way and a dynamic import() the other: either alone is no circle.
  "lib/engine/a.ts": 'import type { B } from "./b";\nexport type A = { b?: B };\n',
  "lib/engine/b.ts": 'export const loadA = () => import("./a");\nexport type B = 1;\n',
};

let root = "";
let result: ICruiseResult;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "assay-depcruise-"));
  for (const [file, text] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const tsConfigFile = path.join(root, "tsconfig.json");
  const cruised = await cruise(
    ["lib", "components"],
    {
      ...config.options,
      baseDir: root,
      tsConfig: { fileName: tsConfigFile },
      ruleSet: { forbidden: config.forbidden },
      validate: true,
    },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  result = cruised.output as ICruiseResult;
}, 60_000);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe("the dependency rules (npm run lint: dependency-cruiser)", () => {
  it("resolves the @/ alias, relative paths and packages, and follows type-only and dynamic imports", () => {
    const dependencies = (source: string) =>
      result.modules.find((module) => module.source === source)?.dependencies.map((d) => d.resolved) ?? [];
    expect(result.modules.flatMap((module) => module.dependencies).filter((d) => d.couldNotResolve)).toEqual([]);
    expect(dependencies("lib/db/repository.ts")).toEqual(
      expect.arrayContaining(["lib/contract/alias.ts", "lib/stats/mean.ts", "lib/db/other.ts"]),
    );
    expect(dependencies("lib/db/reachesUp.ts")).toEqual(["lib/metrics/catalog.ts"]);
    expect(dependencies("lib/engine/a.ts")).toEqual(["lib/engine/b.ts"]);
  });

  it("reports each rule broken once, and none of the allowed imports", () => {
    const violations = result.summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }));
    expect(violations).toEqual(
      expect.arrayContaining([
        { rule: "contract-imports-nothing-of-lib", from: "lib/contract/reachesUp.ts", to: "lib/judges/judge.ts" },
        { rule: "db-imports-only-contract", from: "lib/db/reachesUp.ts", to: "lib/metrics/catalog.ts" },
        { rule: "llm-no-judges", from: "lib/llm/client.ts", to: "lib/judges/judge.ts" },
        { rule: "lib-no-app", from: "lib/engine/page.ts", to: "components/Button.ts" },
        { rule: "no-circular", from: "lib/engine/a.ts", to: "lib/engine/b.ts" },
      ]),
    );
    expect(violations).toHaveLength(5);
    // The circle, with how each step imports: a type-only import there, a dynamic import() back.
    const circle = result.summary.violations.find((violation) => violation.rule.name === "no-circular")?.cycle;
    expect(circle?.map((step) => [step.name, step.dependencyTypes])).toEqual([
      ["lib/engine/b.ts", expect.arrayContaining(["type-only"])],
      ["lib/engine/a.ts", expect.arrayContaining(["dynamic-import"])],
    ]);
    // Every rule of the configuration is among them: a rule added later gets its case here.
    expect(new Set(violations.map((violation) => violation.rule))).toEqual(
      new Set((config.forbidden ?? []).map((rule) => rule.name)),
    );
  });
});
