import { useMemo, useState } from "react";
import { JsonEditor } from "../../components/json-editor.js";
import { JsonView } from "../../components/json-view.js";
import { readHumanInterrupt, resumeValue, type HumanResponse } from "../../lib/human-interrupt.js";
import { parseJsonObject, parseLooseJson, prettyJson } from "../../lib/json-input.js";
import type { InterruptInfo } from "../../lib/run-stream.js";

type Resume = (value: unknown) => Promise<boolean>;

/**
 * The graph stopped in interrupt(): shows what it asked and answers with command.resume, for
 * the patterns LangGraph documents: a HumanInterrupt request (accept, edit its arguments,
 * respond, ignore), approve or reject (resume true / false), review and edit (the value sent
 * back edited), or any answer typed in (JSON when the text parses as JSON, else the text).
 */
export function InterruptPanel({ interrupts, onResume, disabled }: { interrupts: InterruptInfo[]; onResume: Resume; disabled: boolean }) {
  const [isSending, setSending] = useState(false);
  const send = async (value: unknown) => {
    setSending(true);
    const started = await onResume(value);
    setSending(false);
    return started;
  };
  const first = interrupts[0]?.value;
  const human = useMemo(() => readHumanInterrupt(first), [first]);
  const busy = disabled || isSending;
  return (
    <section className="interrupt-panel" aria-label="Interrupt" data-testid="interrupt-panel">
      <h2 className="panel-title">The graph is waiting for you</h2>
      {human ? (
        <HumanInterruptForm key={JSON.stringify(first)} human={human} send={send} busy={busy} />
      ) : (
        <>
          {interrupts.map((interrupt, index) => (
            <div key={interrupt.id ?? index} className="interrupt-value">
              <JsonView value={interrupt.value} label="Interrupt value" compact />
            </div>
          ))}
          <GenericAnswer key={JSON.stringify(first)} value={first} send={send} busy={busy} />
        </>
      )}
    </section>
  );
}

function GenericAnswer({ value, send, busy }: { value: unknown; send: Resume; busy: boolean }) {
  const [answer, setAnswer] = useState("");
  const [editText, setEditText] = useState<string | null>(null);
  const submit = async () => {
    if (await send(parseLooseJson(answer))) setAnswer("");
  };
  return (
    <>
      <div className="interrupt-actions">
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void send(true)} title="Resume with true">
          Approve
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void send(false)} title="Resume with false">
          Reject
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => setEditText(prettyJson(value))} title="Send the interrupt's value back, edited">
          Edit value
        </button>
      </div>
      {editText !== null && <EditAndSend text={editText} onChange={setEditText} label="Edited value" send={(edited) => send(edited)} busy={busy} />}
      <form
        className="interrupt-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="resume-value">Resume with</label>
        <input id="resume-value" value={answer} placeholder='Text, or JSON such as {"approved": true}' onChange={(event) => setAnswer(event.target.value)} disabled={busy} />
        <button type="submit" className="button button-primary" disabled={busy}>
          Resume
        </button>
      </form>
    </>
  );
}

function HumanInterruptForm({ human, send, busy }: { human: NonNullable<ReturnType<typeof readHumanInterrupt>>; send: Resume; busy: boolean }) {
  const { request, asList } = human;
  const [mode, setMode] = useState<"edit" | "respond" | null>(null);
  const [argsText, setArgsText] = useState(() => prettyJson(request.args));
  const [reply, setReply] = useState("");
  const answer = (response: HumanResponse) => send(resumeValue(response, asList));
  return (
    <div className="human-interrupt" data-testid="human-interrupt">
      {request.description && <p className="human-interrupt-description">{request.description}</p>}
      <p>
        Action <code data-testid="interrupt-action">{request.action}</code>
      </p>
      <JsonView value={request.args} label="Action arguments" compact />
      <div className="interrupt-actions">
        {request.allow.accept && (
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void answer({ type: "accept", args: null })}>
            Accept
          </button>
        )}
        {request.allow.edit && (
          <button type="button" className="button" disabled={busy} onClick={() => setMode("edit")}>
            Edit
          </button>
        )}
        {request.allow.respond && (
          <button type="button" className="button" disabled={busy} onClick={() => setMode("respond")}>
            Respond
          </button>
        )}
        {request.allow.ignore && (
          <button type="button" className="button button-danger-quiet" disabled={busy} onClick={() => void answer({ type: "ignore", args: null })}>
            Ignore
          </button>
        )}
      </div>
      {mode === "edit" && (
        <EditAndSend
          text={argsText}
          onChange={setArgsText}
          label="Edited arguments"
          objectOnly
          send={(args) => answer({ type: "edit", args: { action: request.action, args: args as Record<string, unknown> } })}
          busy={busy}
        />
      )}
      {mode === "respond" && (
        <form
          className="interrupt-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (reply.trim()) void answer({ type: "response", args: reply });
          }}
        >
          <label htmlFor="interrupt-reply">Your response</label>
          <input id="interrupt-reply" value={reply} onChange={(event) => setReply(event.target.value)} disabled={busy} />
          <button type="submit" className="button button-primary" disabled={busy || !reply.trim()}>
            Send response
          </button>
        </form>
      )}
    </div>
  );
}

function EditAndSend({
  text,
  onChange,
  label,
  objectOnly = false,
  send,
  busy,
}: {
  text: string;
  onChange: (text: string) => void;
  label: string;
  objectOnly?: boolean;
  send: Resume;
  busy: boolean;
}) {
  const asObject = useMemo(() => parseJsonObject(text), [text]);
  const parsed = objectOnly ? asObject : asObject.ok ? asObject : parseAny(text);
  return (
    <form
      className="interrupt-edit"
      onSubmit={(event) => {
        event.preventDefault();
        if (parsed.ok) void send(parsed.value);
      }}
    >
      <JsonEditor label={label} value={text} onChange={onChange} parsed={parsed} rows={5} />
      <button type="submit" className="button button-primary" disabled={busy || !parsed.ok}>
        Send edited
      </button>
    </form>
  );
}

/** Any JSON value (the edit pattern may send back a string or a list), in JsonEditor's shape; the cast only widens what JsonEditor displays. */
function parseAny(text: string): ReturnType<typeof parseJsonObject> {
  try {
    return { ok: true, value: JSON.parse(text) as Record<string, unknown> };
  } catch (error) {
    return { ok: false, message: `Invalid JSON: ${(error as Error).message}`, line: null, column: null };
  }
}
