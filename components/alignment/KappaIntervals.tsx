import type { AgreementSummary } from "@/lib/stats/agreement";

/**
 * Both versions' κ on the held-out rows as points with their 95 % intervals on one axis from −1 to 1: whether
 * the intervals overlap is seen at a glance, before the numbers are read. An undefined κ is drawn as nothing
 * and said in words.
 */
const WIDTH = 420;
const ROW = 30;
const LEFT = 70;
const RIGHT = 20;

export function KappaIntervals({ versions }: { versions: { name: string; summary: AgreementSummary }[] }) {
  const x = (kappa: number) => LEFT + ((Math.max(-1, Math.min(1, kappa)) + 1) / 2) * (WIDTH - LEFT - RIGHT);
  const height = versions.length * ROW + 24;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      className="w-full max-w-md"
      role="img"
      aria-label={`Cohen's κ with its 95 % interval: ${versions.map((v) => `${v.name} ${v.summary.kappa.defined ? v.summary.kappa.kappa.toFixed(2) : "undefined"}`).join(", ")}`}
      data-testid="kappa-intervals"
    >
      {[-1, -0.5, 0, 0.5, 1].map((tick) => (
        <g key={tick}>
          <line x1={x(tick)} x2={x(tick)} y1={4} y2={height - 18} stroke={tick === 0 ? "#94a3b8" : "#e2e8f0"} />
          <text x={x(tick)} y={height - 4} textAnchor="middle" fontSize="10" fill="#64748b">
            {tick}
          </text>
        </g>
      ))}
      {versions.map((version, i) => {
        const y = 16 + i * ROW;
        const kappa = version.summary.kappa;
        return (
          <g key={version.name}>
            <text x={0} y={y + 4} fontSize="11" fill="#334155">
              {version.name}
            </text>
            {kappa.defined ? (
              <>
                <line x1={x(kappa.low)} x2={x(kappa.high)} y1={y} y2={y} stroke="#6366f1" strokeWidth={2} />
                <line x1={x(kappa.low)} x2={x(kappa.low)} y1={y - 5} y2={y + 5} stroke="#6366f1" strokeWidth={2} />
                <line x1={x(kappa.high)} x2={x(kappa.high)} y1={y - 5} y2={y + 5} stroke="#6366f1" strokeWidth={2} />
                <circle cx={x(kappa.kappa)} cy={y} r={5} fill={i === 0 ? "#94a3b8" : "#4f46e5"} />
              </>
            ) : (
              <text x={x(0)} y={y + 4} fontSize="10" fill="#64748b" textAnchor="middle">
                κ undefined
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
