// The colour-contrast rule, region by region. axe's color-contrast rule is most of an audit's cost (0.83 s of
// 0.95 s for a run page on this 2-core machine): it finds every text element's background by asking the
// browser what lies under it. Whether an element passes depends only on its own computed colours and font,
// and the backgrounds beneath it, so a part of the page that looks the same in two pages (a table row, a card,
// the header) gets the same answer in both. accessibility.ts checks contrast only in the regions whose key it
// has not seen this run, and recalls the rest; every other rule still runs on the whole page.

/** The most elements a region may hold before it is split into its children. */
export const REGION_LIMIT = 120;

/**
 * Evaluated in the page: splits the body into regions (the largest subtrees of at most `limit` elements; an
 * element with text of its own is never split, so every text node lies in exactly one region) and returns one
 * key per region. The regions stay on `window.__assayContrastRegions` for the audit that follows.
 *
 * A key holds what colour contrast depends on: for each element of the region, in order, its tag, the
 * attributes that switch the rule off or on (hidden, disabled, roles), whether each text node is empty, and
 * its computed colours, opacity, font size and weight, text shadow and visibility; for each ancestor, the
 * computed styles that make the backgrounds beneath the region; and the window's size. Classes are not in it:
 * what they do is (a zebra-striped row's background included).
 */
export function markContrastRegions(limit: number): string[] {
  const STYLE_PROPERTIES = [
    "color",
    "background-color",
    "background-image",
    "opacity",
    "font-size",
    "font-weight",
    "text-shadow",
    "visibility",
    "display",
    "position",
    "clip",
    "clip-path",
    "filter",
    "mix-blend-mode",
    "-webkit-text-fill-color",
  ];
  const ATTRIBUTES = /^(role|type|disabled|hidden|inert|aria-disabled|aria-hidden)$/;
  const styleOf = (element: Element) => {
    const style = getComputedStyle(element);
    return STYLE_PROPERTIES.map((property) => style.getPropertyValue(property)).join(";");
  };
  const ownText = (element: Element) =>
    [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && /\S/.test(node.textContent ?? ""));
  const regions: Element[] = [];
  const split = (element: Element) => {
    if (element.getElementsByTagName("*").length <= limit || ownText(element) || element.children.length === 0)
      regions.push(element);
    else for (const child of element.children) split(child);
  };
  split(document.body);
  const describe = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return /\S/.test(node.textContent ?? "") ? "t" : "";
    if (node.nodeType !== Node.ELEMENT_NODE) return "";
    const element = node as Element;
    const attributes = [...element.attributes]
      .filter((attribute) => ATTRIBUTES.test(attribute.name))
      .map((attribute) => `${attribute.name}=${attribute.value}`)
      .sort()
      .join(" ");
    return `<${element.tagName} ${attributes} {${styleOf(element)}}>${[...element.childNodes].map(describe).join("")}</>`;
  };
  const ancestry = (element: Element) => {
    const chain: string[] = [];
    for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement)
      chain.push(`${ancestor.tagName} {${styleOf(ancestor)}}`);
    return chain.join(" < ");
  };
  const hash = (text: string) => {
    let value = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return `${value.toString(16)}:${text.length}`;
  };
  (window as unknown as { __assayContrastRegions?: Element[] }).__assayContrastRegions = regions;
  return regions.map((region) => hash(`${innerWidth}x${innerHeight} ${ancestry(region)} ${describe(region)}`));
}
