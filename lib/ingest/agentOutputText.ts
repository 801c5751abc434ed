/**
 * The response text of an agent's output, in the shapes MLflow records at a
 * trace's root span (or in the trace's response field):
 * - a plain string;
 * - an OpenAI ChatCompletion (`choices[0].message.content`);
 * - a ChatAgent `{messages: [...]}` (the last message);
 * - a ResponsesAgent response (`output: [{type: "message", role: "assistant",
 *   content: [{type: "output_text", text}]}, ...]`), where tool calls and
 *   their outputs sit between the messages;
 * - `{content}`, `{output}`, `{response}` or `{answer}` holding a string.
 * A message's content may be a string or a list of content parts.
 */
export function agentOutputText(output: unknown): string | null {
  if (typeof output === "string") return nonBlank(output);
  // PyFunc's predict wraps a single output in a list.
  if (Array.isArray(output)) return output.length === 1 ? agentOutputText(output[0]) : null;
  if (!isRecord(output)) return null;
  if (Array.isArray(output.choices) && isRecord(output.choices[0])) {
    const choice = output.choices[0];
    if (isRecord(choice.message)) return contentText(choice.message.content);
    if (typeof choice.text === "string") return nonBlank(choice.text);
  }
  if (Array.isArray(output.output)) return responsesOutputText(output.output);
  if (Array.isArray(output.messages)) {
    const last = output.messages[output.messages.length - 1];
    if (isRecord(last)) return contentText(last.content);
  }
  for (const key of ["content", "output", "response", "answer"]) {
    if (typeof output[key] === "string") return nonBlank(output[key] as string);
  }
  return null;
}

/**
 * A ResponsesAgent's `output` items: the text of every assistant message item,
 * in order, one paragraph per item. Function calls, their outputs and
 * reasoning items are not part of what the user is answered with.
 */
function responsesOutputText(items: unknown[]): string | null {
  const texts: string[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const isMessage = item.type === "message" || (item.type === undefined && "content" in item);
    if (!isMessage || (item.role !== undefined && item.role !== "assistant")) continue;
    const text = contentText(item.content);
    if (text !== null) texts.push(text);
  }
  return texts.length > 0 ? texts.join("\n\n") : null;
}

/** A string, or content parts (`output_text`/`text` parts give their text, a `refusal` part its refusal), one per line. */
function contentText(content: unknown): string | null {
  if (typeof content === "string") return nonBlank(content);
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push(part);
    else if (isRecord(part) && typeof part.text === "string") parts.push(part.text);
    else if (isRecord(part) && part.type === "refusal" && typeof part.refusal === "string") parts.push(part.refusal);
  }
  return nonBlank(parts.join("\n"));
}

function nonBlank(text: string): string | null {
  return text.trim() === "" ? null : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
