import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InertMarkdown } from "@/components/content/InertMarkdown";

/** The server-rendered HTML, as a page sends it. */
const htmlOf = (text: string) => renderToStaticMarkup(createElement(InertMarkdown, { text }));

/** Each anchor with its attributes, its text, and the text of the span right after it. */
function anchors(html: string): Array<{ attrs: string; text: string; after: string }> {
  return [...html.matchAll(/<a ([^>]*)>(.*?)<\/a>(<span[^>]*>[^<]*<\/span>)?/g)].map((m) => ({
    attrs: m[1],
    text: m[2],
    after: (m[3] ?? "").replace(/<[^>]+>/g, ""),
  }));
}

describe("links in uploaded Markdown", () => {
  it("open with rel=noopener noreferrer nofollow in a new tab", () => {
    const [link] = anchors(htmlOf("See [the docs](https://docs.example.com/guide?x=1)."));
    expect(link.attrs).toContain('rel="noopener noreferrer nofollow"');
    expect(link.attrs).toContain('target="_blank"');
  });

  it("show their destination after the link text, so a misleading text cannot hide it", () => {
    const [link] = anchors(htmlOf("[https://bank.example/login](https://evil.example/phish/login?u=1)"));
    expect(link.text).toBe("https://bank.example/login");
    expect(link.after).toBe(" (evil.example/phish/login?u=1)");
  });

  it("show a mailto address and a relative target as written, and cut long ones", () => {
    const links = anchors(
      htmlOf(`[mail](mailto:help@example.com) [rel](../other/page) [long](https://x.example/${"a".repeat(200)})`),
    );
    expect(links.map((l) => l.after)).toEqual([
      " (help@example.com)",
      " (../other/page)",
      ` (x.example/${"a".repeat(80 - "x.example/".length)}…)`,
    ]);
  });

  it("an unsafe target is no link at all", () => {
    const html = htmlOf("[click](javascript:alert(1))");
    expect(anchors(html)).toEqual([]);
    expect(html).toContain("link removed: unsafe target");
  });
});
