import { MAX_JSON_NESTING_DEPTH } from "./limits";

export type JsonShape = { tooDeep: true } | { tooDeep: false; longestString: number };

/**
 * Walks a parsed JSON value without recursion (an explicit stack), so a value
 * nested 20,000 levels deep cannot overflow the call stack while it is being
 * checked. Stops at the first container deeper than maxDepth; otherwise
 * reports the longest string inside, for the cell-size limit. A scalar has
 * depth 0, `[]` and `{}` depth 1, `[[]]` depth 2.
 *
 * Parsing itself is safe: V8's JSON.parse is iterative. What overflows is the
 * recursive code that would see the value afterwards, so every cell goes
 * through this walk first.
 */
export function measureJsonValue(value: unknown, maxDepth: number = MAX_JSON_NESTING_DEPTH): JsonShape {
  let longestString = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: current, depth } = item;
    if (typeof current === "string") {
      if (current.length > longestString) longestString = current.length;
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    const childDepth = depth + 1;
    if (childDepth > maxDepth) return { tooDeep: true };
    const children = Array.isArray(current) ? current : Object.values(current as Record<string, unknown>);
    for (const child of children) stack.push({ value: child, depth: childDepth });
  }
  return { tooDeep: false, longestString };
}

export function tooDeepMessage(maxDepth: number = MAX_JSON_NESTING_DEPTH): string {
  return `the JSON in this cell is nested deeper than ${maxDepth} levels`;
}
