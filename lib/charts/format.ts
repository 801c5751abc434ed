/** Number formatting for chart labels and tooltips: fixed en-US locale so server and browser render the same text. */

export function formatPercent(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)}%`;
}

export function formatInteger(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** Dollars: four decimals under $1, so judge costs of a fraction of a cent line up and stay distinct; cents above. */
export function formatUsd(value: number): string {
  if (value === 0) return "$0.00";
  if (Math.abs(value) < 1) return `$${value.toFixed(4)}`;
  return `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
