import { useEffect, useRef } from "react";
import { EmptyState } from "../../components/feedback.js";
import type { ChatMessage } from "../../lib/chat-messages.js";

const ROLE_LABELS: Record<ChatMessage["role"], string> = {
  user: "You",
  assistant: "Assistant",
  system: "System",
  tool: "Tool",
  other: "Message",
};

/**
 * The conversation, following new content down unless the reader scrolled up. `isWorking` shows
 * that a run is under way while nothing is streaming (a node that does not stream tokens).
 */
export function ChatTranscript({ messages, isWorking = false }: { messages: ChatMessage[]; isWorking?: boolean }) {
  const container = useRef<HTMLDivElement>(null);
  const isPinned = useRef(true);
  const lastText = messages.at(-1)?.text ?? "";

  useEffect(() => {
    const element = container.current;
    if (element && isPinned.current) element.scrollTop = element.scrollHeight;
  }, [messages.length, lastText, isWorking]);

  return (
    <div
      ref={container}
      className="transcript"
      role="log"
      aria-live="polite"
      aria-label="Conversation"
      onScroll={(event) => {
        const element = event.currentTarget;
        isPinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
      }}
    >
      {messages.length === 0 && !isWorking && <EmptyState title="No messages yet">Type below and press Enter to start a run.</EmptyState>}
      {messages.map((message) => (
        <article key={message.key} className={`message message-${message.role}`} data-streaming={message.isStreaming || undefined}>
          <header className="message-role">
            {ROLE_LABELS[message.role]}
            {message.name && <span className="muted"> · {message.name}</span>}
          </header>
          {(message.text || message.isStreaming) && (
            <div className="message-text">
              {message.text}
              {message.isStreaming && <span className="caret" aria-hidden="true" />}
            </div>
          )}
          {message.toolCalls.map((call, index) => (
            <div key={call.id ?? index} className="tool-call">
              <span className="tool-call-name">{call.name}</span>
              <pre>{JSON.stringify(call.args, null, 2)}</pre>
            </div>
          ))}
        </article>
      ))}
      {isWorking && !messages.some((message) => message.isStreaming) && (
        <div className="working" role="status">
          <span className="working-dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          running…
        </div>
      )}
    </div>
  );
}
