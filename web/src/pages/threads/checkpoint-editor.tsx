import { useEffect, useMemo, useState } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { ErrorBanner } from "../../components/feedback.js";
import { JsonEditor } from "../../components/json-editor.js";
import { ContinueThreadDocument, ThreadStateSchemaDocument } from "../../generated/graphql.js";
import { changedKeys } from "../../lib/checkpoint-timeline.js";
import { parseJsonObject, prettyJson } from "../../lib/json-input.js";
import { checkAgainstSchema, type JsonSchema } from "../../lib/schema-check.js";

const STREAM_MODES = ["VALUES", "UPDATES", "TASKS"] as const;

/**
 * Edits the state saved at one checkpoint and continues from there: the changed keys are written
 * as node `asNode` returned them (a new checkpoint forking from this one), then a run starts from
 * it. The text is checked against the graph's state schema before anything is sent.
 */
export function CheckpointEditor({
  threadId,
  assistantId,
  checkpointId,
  values,
  defaultAsNode,
  onDone,
  onCancel,
}: {
  threadId: string;
  assistantId: string;
  checkpointId: string;
  values: unknown;
  defaultAsNode: string;
  onDone: (runId: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(() => prettyJson(values ?? {}));
  const [asNode, setAsNode] = useState(defaultAsNode);
  const parsed = useMemo(() => parseJsonObject(text), [text]);
  const schemaQuery = useQuery(ThreadStateSchemaDocument, { assistantId });
  // Right after start-up the server may still be deriving schemas from the graph's TypeScript
  // types (tens of seconds on a busy machine): the query then outlives the GraphQL deadline. Ask
  // again until they are ready, rather than editing unchecked for the rest of the page's life.
  const { error: schemaError, refetch: refetchSchema } = schemaQuery;
  useEffect(() => {
    if (schemaError?.code !== "DEADLINE_EXCEEDED") return;
    const timer = window.setTimeout(refetchSchema, 1000);
    return () => window.clearTimeout(timer);
  }, [schemaError, refetchSchema]);
  const schema = (schemaQuery.data?.assistant.graphSchemas.stateSchema ?? null) as JsonSchema | null;
  const issues = parsed.ok && schema ? checkAgainstSchema(parsed.value, schema) : [];
  const update = parsed.ok ? changedKeys(values, parsed.value) : {};
  const hasChanges = Object.keys(update).length > 0;
  const submit = useAction(async () => {
    const { continueThread } = await execute(ContinueThreadDocument, {
      input: { threadId, assistantId, checkpointId, values: update, asNode: asNode.trim() || null, streamMode: [...STREAM_MODES] },
    });
    onDone(continueThread.run.runId);
  });
  return (
    <form
      className="checkpoint-editor"
      aria-label="Edit state"
      onSubmit={(event) => {
        event.preventDefault();
        if (parsed.ok && issues.length === 0 && hasChanges) void submit.run();
      }}
    >
      <JsonEditor
        label="State values"
        value={text}
        onChange={setText}
        parsed={parsed}
        issues={issues}
        rows={10}
        hint={schema ? "Checked against the graph's state schema. Only the keys you change are written." : "Only the keys you change are written."}
      />
      <div className="field">
        <label htmlFor={`as-node-${checkpointId}`}>As node</label>
        <input id={`as-node-${checkpointId}`} value={asNode} onChange={(event) => setAsNode(event.target.value)} placeholder="the node that wrote this checkpoint" />
        <p className="field-hint">The graph continues with what follows this node.</p>
      </div>
      <ErrorBanner error={submit.error} />
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={!parsed.ok || issues.length > 0 || !hasChanges || submit.isPending}>
          {submit.isPending ? "Starting…" : "Save and continue"}
        </button>
      </div>
    </form>
  );
}
