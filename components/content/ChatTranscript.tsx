import { InertMarkdown } from "./InertMarkdown";

export type ChatMessageView = { role: string; content: string };

const ROLE_STYLE: Record<string, string> = {
  user: "border-sky-200 bg-sky-50",
  assistant: "border-slate-200 bg-white",
  system: "border-amber-200 bg-amber-50",
  tool: "border-violet-200 bg-violet-50",
};

/** A request as a chat: every turn, with its role, the last user turn marked as the one being evaluated. */
export function ChatTranscript({ messages }: { messages: ChatMessageView[] }) {
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  return (
    <ol className="space-y-2" data-testid="chat-transcript">
      {messages.map((message, index) => (
        <li
          key={index}
          className={`rounded-md border px-3 py-2 ${ROLE_STYLE[message.role] ?? "border-slate-200 bg-slate-50"} ${message.role === "assistant" ? "ml-8" : ""}`}
        >
          <div className="mb-0.5 flex items-center gap-2 text-[11px] font-medium uppercase tracking-wide text-slate-500">
            {message.role}
            {index === lastUser && messages.length > 1 && (
              <span className="rounded bg-sky-600 px-1 text-[10px] normal-case text-white">evaluated turn</span>
            )}
          </div>
          {message.content ? (
            <InertMarkdown text={message.content} />
          ) : (
            <span className="text-xs italic text-slate-400">(no text content)</span>
          )}
        </li>
      ))}
    </ol>
  );
}
