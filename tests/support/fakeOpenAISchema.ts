/**
 * Deterministic JSON values from a JSON schema, for the fake OpenAI server:
 * the same request always gets the same answer, so judge tests can assert
 * exact verdicts without a model.
 */

import { mulberry32 } from "@/lib/stats/prng";
export type JsonSchemaNode = Record<string, unknown>;

/** Lets a test choose the value at one path (e.g. force "rating" to "no"); undefined keeps the default. */
export type DecideHook = (ctx: {
  path: string;
  schema: JsonSchemaNode;
  options: unknown[] | null;
  seed: string;
}) => unknown;

/** FNV-1a: tiny, stable across runs and platforms, good enough to spread choices. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A seeded PRNG (the stats library's mulberry32) so "10% of requests fail" picks the same requests every run. */
export function seededRandom(seed: number): () => number {
  return mulberry32(seed);
}

export function synthesize(root: JsonSchemaNode, seed: string, decide?: DecideHook): unknown {
  const visit = (node: JsonSchemaNode, path: string, depth: number): unknown => {
    if (depth > 12) return null; // recursive $refs: stop rather than loop
    const resolved = resolveRef(root, node);
    const options = Array.isArray(resolved.enum) ? (resolved.enum as unknown[]) : null;
    const chosen = decide?.({ path, schema: resolved, options, seed });
    if (chosen !== undefined) return chosen;
    const h = hashString(`${seed}|${path}`);
    if ("const" in resolved) return resolved.const;
    if (options && options.length > 0) return options[h % options.length];
    const variants = (resolved.anyOf ?? resolved.oneOf) as JsonSchemaNode[] | undefined;
    if (Array.isArray(variants) && variants.length > 0) {
      const nonNull = variants.find((variant) => variant.type !== "null") ?? variants[0];
      return visit(nonNull, path, depth + 1);
    }
    switch (pickType(resolved)) {
      case "object":
        return synthObject(resolved, path, depth);
      case "array":
        return synthArray(resolved, path, depth);
      case "string":
        return synthString(resolved, path, h);
      case "integer":
        return synthNumber(resolved, h, true);
      case "number":
        return synthNumber(resolved, h, false);
      case "boolean":
        return h % 2 === 0;
      case "null":
        return null;
      default:
        return `fake ${path || "value"}`;
    }
  };

  const synthObject = (node: JsonSchemaNode, path: string, depth: number): Record<string, unknown> => {
    const properties = (node.properties ?? {}) as Record<string, JsonSchemaNode>;
    const out: Record<string, unknown> = {};
    // Only declared properties: additionalProperties:false must hold, and
    // optional ones are included too so tests see every field exercised.
    for (const [key, child] of Object.entries(properties))
      out[key] = visit(child, path ? `${path}.${key}` : key, depth + 1);
    return out;
  };

  const synthArray = (node: JsonSchemaNode, path: string, depth: number): unknown[] => {
    const min = typeof node.minItems === "number" ? node.minItems : 0;
    const max = typeof node.maxItems === "number" ? node.maxItems : Number.POSITIVE_INFINITY;
    const count = Math.max(min, Math.min(2, max));
    const items = (node.items ?? {}) as JsonSchemaNode;
    return Array.from({ length: count }, (_, index) => visit(items, `${path}[${index}]`, depth + 1));
  };

  return visit(root, "", 0);
}

function resolveRef(root: JsonSchemaNode, node: JsonSchemaNode): JsonSchemaNode {
  const ref = node.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return node;
  let target: unknown = root;
  for (const part of ref.slice(2).split("/"))
    target = (target as Record<string, unknown> | undefined)?.[decodeURIComponent(part)];
  return (target as JsonSchemaNode | undefined) ?? {};
}

function pickType(node: JsonSchemaNode): string | undefined {
  if (Array.isArray(node.type)) return (node.type as string[]).find((type) => type !== "null") ?? "null";
  if (typeof node.type === "string") return node.type;
  if (node.properties) return "object";
  if (node.items) return "array";
  return undefined;
}

function synthString(node: JsonSchemaNode, path: string, h: number): string {
  const min = typeof node.minLength === "number" ? node.minLength : 0;
  const max = typeof node.maxLength === "number" ? node.maxLength : Number.POSITIVE_INFINITY;
  let text = `fake ${path || "text"} ${h.toString(16).slice(0, 6)}`;
  while (text.length < min) text += " x";
  return text.slice(0, max);
}

function synthNumber(node: JsonSchemaNode, h: number, integer: boolean): number {
  const lowIn =
    typeof node.minimum === "number"
      ? node.minimum
      : typeof node.exclusiveMinimum === "number"
        ? node.exclusiveMinimum
        : null;
  const highIn =
    typeof node.maximum === "number"
      ? node.maximum
      : typeof node.exclusiveMaximum === "number"
        ? node.exclusiveMaximum
        : null;
  const low = lowIn ?? (highIn !== null ? highIn - 10 : 0);
  const high = highIn ?? low + 10;
  const fraction = ((h % 998) + 1) / 1000; // in (0, 1): exclusive bounds hold too
  if (integer) {
    const lo = Math.ceil(low + (typeof node.exclusiveMinimum === "number" ? 1e-9 : 0));
    const hi = Math.floor(high - (typeof node.exclusiveMaximum === "number" ? 1e-9 : 0));
    return hi >= lo ? lo + (h % (hi - lo + 1)) : lo;
  }
  // Stay strictly inside open bounds, and round so the JSON stays short.
  const value = low + fraction * (high - low);
  return Math.round(value * 1000) / 1000;
}
