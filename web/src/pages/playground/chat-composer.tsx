import { useState, type KeyboardEvent } from "react";

interface ChatComposerProps {
  disabled: boolean;
  placeholder: string;
  /** Resolves true when the run started (the text is then cleared). */
  onSend: (text: string) => Promise<boolean>;
  sendLabel: string;
  /** Why the text cannot be sent as it is (shown under the box, which is marked invalid); null when it can. */
  validate?: (text: string) => string | null;
}

/** The message box: Enter sends, Shift+Enter starts a new line. */
export function ChatComposer({ disabled, placeholder, onSend, sendLabel, validate }: ChatComposerProps) {
  const [text, setText] = useState("");
  const [isSending, setSending] = useState(false);
  const problem = text.trim() === "" || !validate ? null : validate(text.trim());

  const send = async () => {
    const message = text.trim();
    if (!message || isSending || disabled || problem !== null) return;
    setSending(true);
    const started = await onSend(message);
    setSending(false);
    if (started) setText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <textarea
        className="composer-input"
        aria-label="Message"
        placeholder={placeholder}
        rows={2}
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={problem !== null}
        aria-describedby={problem !== null ? "composer-problem" : undefined}
        data-search
      />
      <button type="submit" className="button button-primary" disabled={disabled || isSending || text.trim() === "" || problem !== null}>
        {isSending ? "Sending…" : sendLabel}
      </button>
      {problem !== null && (
        <p id="composer-problem" className="field-error composer-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
