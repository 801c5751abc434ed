import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findImportCycles, importGraph } from "../../scripts/lint/importCycles";

describe("the import circle check (npm run lint)", () => {
  it("finds a circle of type imports through the alias and relative paths, and one cycle per circle", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "assay-cycles-"));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write(
      "lib/ingest/types.ts",
      'import type { LabelEntry } from "@/lib/labels/labelValue";\nexport type Row = { labels: LabelEntry[] };\n',
    );
    write(
      "lib/labels/labelValue.ts",
      'import type { Kind } from "./labelKinds";\nexport type LabelEntry = { kind: Kind };\n',
    );
    write("lib/labels/labelKinds.ts", 'import type { Row } from "../ingest/types";\nexport type Kind = keyof Row;\n');
    write("lib/labels/index.ts", 'export { type LabelEntry } from "./labelValue";\n');
    write("lib/metrics/a.ts", 'import { b } from "./b";\nexport const a = b;\n');
    write("lib/metrics/b.ts", "export const b = 1;\n");
    write("lib/metrics/self.tsx", 'import "./self";\n');
    const cycles = findImportCycles(importGraph(root, ["lib"]));
    expect(cycles).toEqual([
      ["lib/ingest/types.ts", "lib/labels/labelValue.ts", "lib/labels/labelKinds.ts", "lib/ingest/types.ts"],
      ["lib/metrics/self.tsx", "lib/metrics/self.tsx"],
    ]);
  });

  it("finds none in the app", () => {
    const root = path.resolve(import.meta.dirname, "..", "..");
    expect(findImportCycles(importGraph(root, ["app", "components", "lib", "scripts", "proxy.ts"]))).toEqual([]);
  });
});
