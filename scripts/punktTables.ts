// Converts NLTK's English Punkt model (nltk_data's tokenizers/punkt_tab/english/: abbrev_types.txt,
// collocations.tab, sent_starters.txt, ortho_context.tab) into lib/metrics/statistical/punkt/english.json,
// which the sentence splitter imports. Read as NLTK's loader reads them (nltk/tabdata.py): one entry per line,
// only the line break removed (an entry may keep a trailing space: ". . ").
// Usage: npx tsx scripts/punktTables.ts PATH/TO/punkt_tab/english
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: npx tsx scripts/punktTables.ts PATH/TO/punkt_tab/english");
  process.exit(2);
}
const lines = (file: string) => fs.readFileSync(path.join(dir, file), "utf8").split("\n");
const tabs = (file: string) => lines(file).map((line) => line.split("\t"));

const tables = {
  abbrevTypes: [...new Set(lines("abbrev_types.txt"))].sort(),
  collocations: tabs("collocations.tab")
    .map(([first = "", second = ""]) => [first, second])
    .sort((a, b) => (a.join("\t") < b.join("\t") ? -1 : 1)),
  sentStarters: [...new Set(lines("sent_starters.txt"))].sort(),
  orthoContext: Object.fromEntries(
    tabs("ortho_context.tab")
      .map(([type = "", flags = "0"]) => [type, Number(flags)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ),
};
const out = path.resolve(import.meta.dirname, "..", "lib", "metrics", "statistical", "punkt", "english.json");
fs.writeFileSync(out, JSON.stringify(tables) + "\n");
for (const file of ["abbrev_types.txt", "collocations.tab", "sent_starters.txt", "ortho_context.tab"])
  console.log(
    `${file}: sha256 ${createHash("sha256")
      .update(fs.readFileSync(path.join(dir, file)))
      .digest("hex")}`,
  );
console.log(
  `wrote ${out}: ${tables.abbrevTypes.length} abbreviations, ${tables.collocations.length} collocations, ${tables.sentStarters.length} sentence starters, ${Object.keys(tables.orthoContext).length} orthographic contexts`,
);
