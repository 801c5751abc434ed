/**
 * Chart colours as hex, because recharts paints SVG fills from data, where
 * Tailwind classes do not reach. Named after the Tailwind shades they match
 * so the charts sit in the same slate palette as the rest of the app.
 */
export const CHART_COLORS = {
  good: "#059669", // emerald-600
  fair: "#d97706", // amber-600
  poor: "#e11d48", // rose-600
  neutral: "#64748b", // slate-500
  ink: "#0f172a", // slate-900
  axis: "#475569", // slate-600
  grid: "#e2e8f0", // slate-200
  verdictYes: "#10b981", // emerald-500
  verdictNo: "#f43f5e", // rose-500
  verdictError: "#f59e0b", // amber-500
  verdictAbsent: "#e2e8f0", // slate-200
} as const;

/**
 * Series colours for compared runs: the baseline is always a mid slate (light enough that the ink
 * whiskers of its interval show on it), candidates cycle through the rest.
 */
export const BASELINE_SERIES_COLOR = "#94a3b8"; // slate-400
export const CANDIDATE_SERIES_COLORS = ["#6366f1", "#0ea5e9", "#14b8a6", "#a855f7", "#f59e0b", "#ec4899"] as const; // indigo, sky, teal, purple, amber, pink (500)
