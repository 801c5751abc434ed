/** One run tag as a chip; a `key=value` tag shows its key dimmed ("branch=main"). */
export function RunTag({ tag }: { tag: string }) {
  const split = tag.indexOf("=");
  return (
    <span className="inline-flex max-w-[14rem] items-center truncate rounded border border-slate-200 bg-slate-50 px-1.5 py-px font-mono text-[11px] text-slate-700">
      {split > 0 ? (
        <>
          <span className="text-slate-400">{tag.slice(0, split + 1)}</span>
          {tag.slice(split + 1)}
        </>
      ) : (
        tag
      )}
    </span>
  );
}
