import ReactMarkdown, { type Components } from "react-markdown";

/**
 * Renders uploaded content (plain text, Markdown or HTML: any format the Agent Evaluation input schema allows) so that
 * nothing in it runs or loads. Markdown formatting is rendered; raw HTML is
 * turned into literal text, so a reviewer sees `<script>` rather than losing
 * it or running it; images become links that are never fetched; link targets
 * go through react-markdown's URL filter (no javascript: URLs), open with
 * rel="noopener noreferrer nofollow", and show their destination after their text.
 */
export function InertMarkdown({ text, className = "" }: { text: string; className?: string }) {
  return (
    <div className={`inert-markdown ${className}`}>
      <ReactMarkdown remarkPlugins={[rawHtmlAsText]} components={COMPONENTS} skipHtml={false}>
        {text}
      </ReactMarkdown>
    </div>
  );
}

type MdNode = { type: string; value?: string; children?: MdNode[] };

/** A remark plugin: every raw HTML node becomes a text node with the same characters. */
function rawHtmlAsText() {
  const visit = (node: MdNode) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(visit);
  };
  return (tree: MdNode) => visit(tree);
}

const COMPONENTS: Components = {
  // react-markdown empties unsafe targets (javascript:, data:); such a link is shown as plain text, not as a link to nowhere.
  a: ({ href, children }) =>
    href ? (
      <>
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
        {/* Uploaded text picks the link text, so the reader sees where the link really goes before following it. */}
        <span className="link-destination text-xs text-slate-500"> ({linkDestination(href)})</span>
      </>
    ) : (
      <span className="text-slate-500" title="link removed: unsafe target">
        {children}
      </span>
    ),
  img: ({ src, alt }) => (
    <span className="rounded bg-slate-100 px-1 text-xs text-slate-600">
      [image: {alt || "no alt text"}
      {typeof src === "string" ? ` — ${src}` : ""}]
    </span>
  ),
};

const MAX_DESTINATION_CHARS = 80;

/** Where a link goes, in words a reader can check: host and path for web links, the address for mailto:, else the target. */
function linkDestination(href: string): string {
  let shown = href;
  try {
    const url = new URL(href);
    if (url.protocol === "http:" || url.protocol === "https:")
      shown = `${url.host}${url.pathname === "/" ? "" : url.pathname}${url.search}`;
    else if (url.protocol === "mailto:") shown = url.pathname;
  } catch {
    // relative or schemeless: the target as written
  }
  return shown.length > MAX_DESTINATION_CHARS ? `${shown.slice(0, MAX_DESTINATION_CHARS)}…` : shown;
}
