export function CardSkeleton({ tall = false }: { tall?: boolean }) {
  return (
    <div
      aria-hidden
      className={`animate-pulse rounded-lg border border-slate-200 bg-white p-4 ${tall ? "h-96" : "h-56"}`}
    >
      <div className="h-3 w-40 rounded bg-slate-200" />
      <div className="mt-4 space-y-2">
        {Array.from({ length: tall ? 10 : 5 }, (_, i) => (
          <div key={i} className="h-3 rounded bg-slate-100" />
        ))}
      </div>
    </div>
  );
}
