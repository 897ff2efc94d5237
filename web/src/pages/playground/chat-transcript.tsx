import { useEffect, useRef, useState } from "react";
import { EmptyState } from "../../components/feedback.js";
import type { MessageSiblings } from "../../lib/chat-branches.js";
import type { ChatMessage } from "../../lib/chat-messages.js";

const ROLE_LABELS: Record<ChatMessage["role"], string> = {
  user: "You",
  assistant: "Assistant",
  system: "System",
  tool: "Tool",
  other: "Message",
};

/** Branching, on the Test page: edit a message and re-run, switch between a message's versions. */
export interface ChatBranching {
  /** By message position: the versions of messages that have several. */
  siblings: ReadonlyMap<number, MessageSiblings>;
  onSwitch: (tipId: string) => void;
  /** Whether the message at this position can be edited (its earlier checkpoint is loaded). */
  canEdit: (position: number) => boolean;
  /** Re-runs from before the message with the new text; resolves false when the run did not start. */
  onEdit: (position: number, text: string) => Promise<boolean>;
}

/**
 * The conversation, following new content down unless the reader scrolled up. `isWorking` shows
 * that a run is under way while nothing is streaming (a node that does not stream tokens).
 */
export function ChatTranscript({
  messages,
  isWorking = false,
  branching = null,
}: {
  messages: ChatMessage[];
  isWorking?: boolean;
  branching?: ChatBranching | null;
}) {
  const [editing, setEditing] = useState<number | null>(null);
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
      {messages.map((message, position) => (
        <article key={message.key} className={`message message-${message.role}`} data-streaming={message.isStreaming || undefined}>
          <header className="message-role">
            {ROLE_LABELS[message.role]}
            {message.name && <span className="muted"> · {message.name}</span>}
            {branching && (
              <MessageBranchControls
                siblings={branching.siblings.get(position) ?? null}
                onSwitch={branching.onSwitch}
                onEdit={message.role === "user" && branching.canEdit(position) && editing === null ? () => setEditing(position) : null}
              />
            )}
          </header>
          {editing === position && branching ? (
            <MessageEditor
              initial={message.text}
              onCancel={() => setEditing(null)}
              onSave={async (text) => {
                if (await branching.onEdit(position, text)) setEditing(null);
              }}
            />
          ) : (message.text || message.isStreaming) && (
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

/** "‹ 1/2 ›" between a message's versions, and its Edit button. */
function MessageBranchControls({
  siblings,
  onSwitch,
  onEdit,
}: {
  siblings: MessageSiblings | null;
  onSwitch: (tipId: string) => void;
  onEdit: (() => void) | null;
}) {
  if (!siblings && !onEdit) return null;
  return (
    <span className="message-actions">
      {siblings && (
        <span className="branch-switcher" role="group" aria-label="Versions of this message" data-testid="branch-switcher">
          <button
            type="button"
            className="link-button"
            aria-label="Previous version"
            disabled={siblings.index <= 0}
            onClick={() => onSwitch(siblings.tips[siblings.index - 1]!)}
          >
            ‹
          </button>
          <span className="branch-position">
            {siblings.index + 1}/{siblings.tips.length}
          </span>
          <button
            type="button"
            className="link-button"
            aria-label="Next version"
            disabled={siblings.index >= siblings.tips.length - 1}
            onClick={() => onSwitch(siblings.tips[siblings.index + 1]!)}
          >
            ›
          </button>
        </span>
      )}
      {onEdit && (
        <button type="button" className="link-button" onClick={onEdit}>
          Edit
        </button>
      )}
    </span>
  );
}

function MessageEditor({ initial, onSave, onCancel }: { initial: string; onSave: (text: string) => Promise<void>; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const [isSaving, setSaving] = useState(false);
  return (
    <form
      className="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        setSaving(true);
        void onSave(text).finally(() => setSaving(false));
      }}
    >
      <textarea aria-label="Edited message" value={text} rows={3} onChange={(event) => setText(event.target.value)} />
      <span className="form-actions">
        <button type="button" className="button button-small" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-small button-primary" disabled={isSaving || text.trim() === ""}>
          Save and re-run
        </button>
      </span>
    </form>
  );
}
