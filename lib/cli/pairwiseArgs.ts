import {
  OVERALL_CRITERION,
  PAIRWISE_ORDERS,
  pairwiseCriterionSchema,
  type PairwiseCriterion,
  type PairwiseOrders,
} from "@/lib/contract/pairwise";

/** The gate's pairwise judgment (--pairwise, --pairwise-orders): its criteria and orders. */
export type GatePairwise = { criteria: PairwiseCriterion[]; orders: PairwiseOrders };

/**
 * `--pairwise` takes an optional value: alone (last, or before another flag) it means the built-in criterion,
 * written here as `--pairwise=overall` so that the argument parser, which has no optional values, reads it.
 */
export function withPairwiseDefault(argv: readonly string[]): string[] {
  return argv.map((arg, i) =>
    arg === "--pairwise" && (i === argv.length - 1 || argv[i + 1].startsWith("--"))
      ? `--pairwise=${OVERALL_CRITERION}`
      : arg,
  );
}

/**
 * The gate's pairwise criteria: `overall` (the built-in one) or `NAME=INSTRUCTIONS` (a custom one), each flag
 * one criterion; `--pairwise-orders both|one` (both by default). Undefined without --pairwise; a message for
 * what is wrong otherwise.
 */
export function parsePairwiseFlags(
  values: readonly string[] | undefined,
  orders: string | undefined,
): GatePairwise | string | undefined {
  if (!values || values.length === 0)
    return orders === undefined ? undefined : "--pairwise-orders belongs to --pairwise: give --pairwise too";
  if (orders !== undefined && !(PAIRWISE_ORDERS as readonly string[]).includes(orders))
    return `--pairwise-orders must be ${PAIRWISE_ORDERS.join(" or ")}`;
  const criteria: PairwiseCriterion[] = [];
  for (const value of values) {
    const separator = value.indexOf("=");
    const candidate =
      separator < 0
        ? { name: value.trim() }
        : { name: value.slice(0, separator).trim(), instructions: value.slice(separator + 1).trim() };
    if (separator < 0 && candidate.name !== OVERALL_CRITERION)
      return `--pairwise ${value}: give "${OVERALL_CRITERION}" for the built-in criterion, or NAME=INSTRUCTIONS for a custom one`;
    const parsed = pairwiseCriterionSchema.safeParse(candidate);
    if (!parsed.success) return `--pairwise ${value}: ${parsed.error.issues[0]?.message ?? "not a criterion"}`;
    if (criteria.some((c) => c.name === parsed.data.name))
      return `--pairwise: the criterion "${parsed.data.name}" is given twice`;
    criteria.push(parsed.data);
  }
  return { criteria, orders: (orders as PairwiseOrders | undefined) ?? "both" };
}
