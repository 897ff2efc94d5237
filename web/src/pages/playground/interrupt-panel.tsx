import { useState } from "react";
import { JsonView } from "../../components/json-view.js";
import { parseLooseJson } from "../../lib/json-input.js";
import type { InterruptInfo } from "../../lib/run-stream.js";

/**
 * The graph stopped in interrupt(): shows what it asked and sends the answer as
 * command.resume (JSON when the text parses as JSON, else the text itself).
 */
export function InterruptPanel({ interrupts, onResume, disabled }: { interrupts: InterruptInfo[]; onResume: (value: unknown) => Promise<boolean>; disabled: boolean }) {
  const [answer, setAnswer] = useState("");
  const [isSending, setSending] = useState(false);
  const submit = async () => {
    setSending(true);
    const started = await onResume(parseLooseJson(answer));
    setSending(false);
    if (started) setAnswer("");
  };
  return (
    <section className="interrupt-panel" aria-label="Interrupt" data-testid="interrupt-panel">
      <h2 className="panel-title">The graph is waiting for you</h2>
      {interrupts.map((interrupt, index) => (
        <div key={interrupt.id ?? index} className="interrupt-value">
          <JsonView value={interrupt.value} label="Interrupt value" compact />
        </div>
      ))}
      <form
        className="interrupt-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="resume-value">Resume with</label>
        <input
          id="resume-value"
          value={answer}
          placeholder='Text, or JSON such as {"approved": true}'
          onChange={(event) => setAnswer(event.target.value)}
          disabled={disabled}
        />
        <button type="submit" className="button button-primary" disabled={disabled || isSending}>
          Resume
        </button>
      </form>
    </section>
  );
}
