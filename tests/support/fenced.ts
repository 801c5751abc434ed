import { createHash } from "node:crypto";

/**
 * The contents of every `<untrusted_NAME_ID …>` … `</untrusted_NAME_ID>` fence named `name` in a prompt, in
 * order: what the fake judges read, as a real model would, between an opening tag and the closing tag with the
 * same content hash.
 */
export function fencedContents(prompt: string, name: string): string[] {
  const pattern = new RegExp(
    `<untrusted_${name}_([0-9a-f]{12})(?: [^>]*)?>\\n([\\s\\S]*?)\\n</untrusted_${name}_\\1>`,
    "g",
  );
  return [...prompt.matchAll(pattern)].map((match) => match[2]);
}

/** The tag of the fence around `content`, computed here from its definition (sha256 of the content, 12 hex digits). */
export function fenceTag(name: string, content: string): string {
  return `untrusted_${name}_${createHash("sha256").update(content).digest("hex").slice(0, 12)}`;
}

/** A whole fence as the prompt shows it: opening tag (with attributes), content, closing tag. */
export function fenced(name: string, content: string, attributes = ""): string {
  const tag = fenceTag(name, content);
  return `<${tag}${attributes}>\n${content}\n</${tag}>`;
}
