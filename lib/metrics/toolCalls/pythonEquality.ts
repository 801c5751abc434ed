/**
 * Python's `==` and `json.dumps` on JSON-like values, so the tool-call scorers compare arguments and outputs
 * the way DeepEval and MLflow do in Python.
 *
 * Values are expected to be what `JSON.parse` returns (null, boolean, number, string, array, plain object).
 * Anything else (undefined, functions, symbols) is read as null; a bigint as a Python int.
 *
 * Limits, because JavaScript loses what Python keeps after parsing JSON:
 * - int and float are one type here: `1` and `1.0` are the same number. Python's `==` agrees (1 == 1.0), but
 *   Python's `json.dumps` writes an int as `1` and a float as `1.0`. `pythonJsonDumps` writes every
 *   integer-valued number as a Python int (tool arguments are far more often ints), so a float argument that
 *   Python would write as `5.0` is written `5` here, and an integer-valued float ≥ 1e16 (Python `1e+16`) is
 *   written in full.
 * - dict key order is JavaScript's: integer-like keys ("1", "2") come first, whatever order the JSON had.
 *   It matters only where Python writes keys in insertion order (`sort_keys=False`).
 */

/** A Python dict: a plain object (not an array, not null). */
export function isPythonDict(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** bool is a subclass of int in Python: True == 1 == 1.0 and False == 0. Returns null for non-numbers. */
function asPythonNumber(value: unknown): number | bigint | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number" || typeof value === "bigint") return value;
  return null;
}

function numbersEqual(a: number | bigint, b: number | bigint): boolean {
  // NaN != NaN and -0.0 == 0, as in Python; an int and a float are compared exactly, as Python does.
  if (typeof a === "number") return typeof b === "number" ? a === b : Number.isInteger(a) && BigInt(a) === b;
  if (typeof b === "bigint") return a === b;
  return Number.isInteger(b) && BigInt(b) === a;
}

/**
 * `a == b` in Python for JSON-like values: numbers by value (1 == 1.0, True == 1), strings exactly, lists
 * element by element, dicts by key set and values (key order irrelevant), None only equal to None.
 * (Python's identity shortcut, which makes a list holding the same NaN object equal to itself, has no JSON
 * counterpart and is not reproduced.)
 */
export function pythonEquals(a: unknown, b: unknown): boolean {
  const left = a === undefined ? null : a;
  const right = b === undefined ? null : b;
  if (left === null || right === null) return left === right;
  const leftNumber = asPythonNumber(left);
  const rightNumber = asPythonNumber(right);
  if (leftNumber !== null || rightNumber !== null) {
    return leftNumber !== null && rightNumber !== null && numbersEqual(leftNumber, rightNumber);
  }
  if (typeof left === "string" || typeof right === "string") return left === right;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => pythonEquals(item, right[index]));
  }
  if (isPythonDict(left) && isPythonDict(right)) {
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.hasOwn(right, key) && pythonEquals(left[key], right[key]));
  }
  return false;
}

/** Python orders str by code point; JavaScript's `<` compares UTF-16 units, which differs above U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const difference = (left[index].codePointAt(0) ?? 0) - (right[index].codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

const NAMED_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/**
 * A JSON string as `json.dumps` writes it with the default `ensure_ascii=True`: everything outside printable
 * ASCII (0x20–0x7e) as a lowercase `\uXXXX`, characters above U+FFFF as their surrogate pair, which is exactly
 * the UTF-16 units JavaScript stores.
 */
function dumpsString(text: string): string {
  let out = '"';
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    const code = text.charCodeAt(index);
    const named = NAMED_ESCAPES[char];
    if (named !== undefined) out += named;
    else if (code >= 0x20 && code <= 0x7e) out += char;
    else out += `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return `${out}"`;
}

/**
 * A number as Python's `int.__repr__` / `float.__repr__` (see the file comment for the int/float limit).
 * float repr: the shortest digits that round-trip (JavaScript's choice too), in scientific notation when the
 * decimal exponent is below -4 (`1e-05`, two-digit exponent at least), fixed otherwise.
 */
export function pythonNumberRepr(value: number | bigint): string {
  if (typeof value === "bigint") return value.toString();
  if (Number.isNaN(value)) return "NaN"; // json.dumps' allow_nan=True spellings
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (Number.isInteger(value)) return BigInt(value).toString();
  if (Math.abs(value) < 1e-4) {
    const [mantissa, exponent] = value.toExponential().split("e");
    const sign = exponent.startsWith("-") ? "-" : "+";
    return `${mantissa}e${sign}${exponent.replace(/^[+-]/, "").padStart(2, "0")}`;
  }
  return String(value); // non-integers ≥ 1e-4 are < 2^53, where JavaScript writes fixed notation like Python
}

/**
 * `json.dumps(value, sort_keys=...)` with Python's defaults: separators ", " and ": ", ensure_ascii=True,
 * allow_nan=True. With `sortKeys` keys are ordered by code point, as Python sorts str.
 */
export function pythonJsonDumps(value: unknown, options: { sortKeys?: boolean } = {}): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" || typeof value === "bigint") return pythonNumberRepr(value);
  if (typeof value === "string") return dumpsString(value);
  if (Array.isArray(value)) return `[${value.map((item) => pythonJsonDumps(item, options)).join(", ")}]`;
  if (isPythonDict(value)) {
    const keys = Object.keys(value);
    if (options.sortKeys) keys.sort(compareCodePoints);
    return `{${keys.map((key) => `${dumpsString(key)}: ${pythonJsonDumps(value[key], options)}`).join(", ")}}`;
  }
  return "null";
}

/** `json.dumps(value, sort_keys=True)`: MLflow's tool-call signature form. */
export function canonicalJson(value: unknown): string {
  return pythonJsonDumps(value, { sortKeys: true });
}
