import fs from "node:fs";
import path from "node:path";

/**
 * Import circles in the app's TypeScript: part of `npm run lint`, so a circle fails CI. Type-only imports
 * count too: a circle of types still ties two layers into one, and the next value import along it fails at
 * start-up in whichever order the bundler loads them. Resolves the `@/` alias and relative paths to files
 * (`.ts`, `.tsx`, `index.ts`); packages are not followed.
 */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']|(?:^|\n)\s*import\s+["']([^"']+)["']/g;
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

export type ImportGraph = Map<string, string[]>;

/** Each file's imports of other files of the project, by path relative to `root`. */
export function importGraph(root: string, folders: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  const files = folders.flatMap((folder) => listSources(path.join(root, folder)));
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const resolved = resolveImport(root, file, match[1] ?? match[2]);
      if (resolved) targets.add(path.relative(root, resolved));
    }
    graph.set(path.relative(root, file), [...targets].sort());
  }
  return graph;
}

function listSources(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  if (fs.statSync(folder).isFile()) return [folder];
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "generated" ? [] : listSources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolveImport(root: string, from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  if (/\.tsx?$/.test(base) && fs.existsSync(base)) return base;
  for (const extension of EXTENSIONS) if (fs.existsSync(base + extension)) return base + extension;
  return null;
}

/**
 * The graph's circles: each strongly connected component of more than one file (or a file importing itself),
 * given as one cycle through it, starting at its first file in name order.
 */
export function findImportCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const at = (map: Map<string, number>, file: string) => map.get(file) ?? 0;
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(at(low, file), at(low, next)));
      } else if (onStack.has(next)) low.set(file, Math.min(at(low, file), at(index, next)));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component);
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return components.map((component) => cycleThrough(graph, new Set(component)));
}

/** One cycle within a component, by breadth-first search back to its first file. */
function cycleThrough(graph: ImportGraph, members: Set<string>): string[] {
  const start = [...members].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const cycle = [file];
        for (let before = previous.get(cycle[0]); cycle[0] !== start && before; before = previous.get(cycle[0]))
          cycle.unshift(before);
        return [...cycle, start];
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

// `tsx scripts/lint/importCycles.ts`: prints every circle and exits 1 when there is one.
if (import.meta.url === `file://${process.argv[1]}`) {
  const cycles = findImportCycles(importGraph(process.cwd(), ["app", "components", "lib", "scripts", "proxy.ts"]));
  for (const cycle of cycles) console.error(`import circle: ${cycle.join(" → ")}`);
  if (cycles.length > 0) {
    console.error(
      `${cycles.length} import ${cycles.length === 1 ? "circle" : "circles"}: put what both sides share in a module below them.`,
    );
    process.exit(1);
  }
  console.log("no import circles");
}
