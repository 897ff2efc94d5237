import { useMemo, useState, type FormEvent } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { Dialog } from "../../components/dialog.js";
import { ErrorBanner } from "../../components/feedback.js";
import { JsonEditor } from "../../components/json-editor.js";
import {
  CreateAssistantDocument,
  DeployedGraphsDocument,
  UpdateAssistantDocument,
  type AssistantDetailFieldsFragment,
} from "../../generated/graphql.js";
import { parseJsonObject, prettyJson } from "../../lib/json-input.js";
import { checkAgainstSchema, defaultsFromSchema, type JsonSchema } from "../../lib/schema-check.js";

type FormMode = { kind: "create" } | { kind: "edit"; assistant: AssistantDetailFieldsFragment };

interface AssistantFormDialogProps {
  mode: FormMode;
  onClose: () => void;
  onSaved: (assistantId: string) => void;
}

/**
 * Creates an assistant, or saves an edit as its next version. The context is edited as JSON and
 * checked, as it is typed, against the graph's context schema when the graph declares one.
 */
export function AssistantFormDialog({ mode, onClose, onSaved }: AssistantFormDialogProps) {
  const editing = mode.kind === "edit" ? mode.assistant : null;
  const graphs = useQuery(DeployedGraphsDocument, {});
  const graphList = graphs.data?.assistants.edges.map((edge) => edge.node) ?? [];
  const [graphId, setGraphId] = useState(editing?.graphId ?? "");
  const [name, setName] = useState(editing?.name ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [contextText, setContextText] = useState(editing ? prettyJson(editing.context) : "");
  const [metadataText, setMetadataText] = useState(editing ? prettyJson(editing.metadata) : "{}");
  const [isContextTouched, setContextTouched] = useState(editing !== null);

  const selectedGraph = graphList.find((graph) => graph.graphId === graphId) ?? null;
  const contextSchema = (selectedGraph?.graphSchemas.contextSchema ?? null) as JsonSchema | null;
  // A new assistant starts from the graph's defaults until the user types their own context.
  const shownContextText = isContextTouched ? contextText : prettyJson(defaultsFromSchema(contextSchema));
  const context = useMemo(() => parseJsonObject(shownContextText), [shownContextText]);
  const metadata = useMemo(() => parseJsonObject(metadataText), [metadataText]);
  const contextIssues = context.ok && contextSchema ? checkAgainstSchema(context.value, contextSchema) : [];

  const save = useAction(async () => {
    if (!context.ok || !metadata.ok) return null;
    const fields = {
      graphId,
      name: name.trim() || undefined,
      description: description.trim() || null,
      context: context.value,
      metadata: metadata.value,
    };
    if (editing) {
      const result = await execute(UpdateAssistantDocument, { input: { assistantId: editing.assistantId, ...fields } });
      return result.updateAssistant.assistant.assistantId;
    }
    const result = await execute(CreateAssistantDocument, { input: { ...fields, description: fields.description ?? undefined } });
    return result.createAssistant.assistant.assistantId;
  });

  const isValid = graphId !== "" && context.ok && metadata.ok && contextIssues.length === 0;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isValid) return;
    const assistantId = await save.run();
    if (assistantId) onSaved(assistantId);
  };

  const title = editing ? `Edit ${editing.name}` : "New assistant";
  return (
    <Dialog title={title} onClose={onClose} size="wide">
      <form className="form" onSubmit={submit} noValidate>
        {editing && (
          <p className="form-note">
            Saving creates version {editing.version + 1} and makes it active. Earlier versions stay available.
          </p>
        )}
        <div className="form-row">
          <div className="field">
            <label htmlFor="assistant-graph">Graph</label>
            <select id="assistant-graph" value={graphId} required onChange={(event) => setGraphId(event.target.value)}>
              <option value="" disabled>
                {graphs.isLoading ? "Loading graphs…" : "Choose a deployed graph"}
              </option>
              {graphList.map((graph) => (
                <option key={graph.graphId} value={graph.graphId}>
                  {graph.graphId}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="assistant-name">Name</label>
            <input
              id="assistant-name"
              value={name}
              placeholder={graphId ? `Defaults to “${graphId}”` : "A name people will recognise"}
              onChange={(event) => setName(event.target.value)}
              data-autofocus={editing ? true : undefined}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor="assistant-description">Description</label>
          <textarea id="assistant-description" rows={2} value={description} onChange={(event) => setDescription(event.target.value)} />
        </div>
        <JsonEditor
          label="Context"
          value={shownContextText}
          onChange={(text) => {
            setContextTouched(true);
            setContextText(text);
          }}
          parsed={context}
          issues={contextIssues}
          rows={9}
          hint={
            !graphId
              ? "Pick a graph to check the context against its schema."
              : contextSchema
                ? `Matches the ${graphId} graph's context schema.`
                : `The ${graphId} graph declares no context schema; any JSON object is accepted.`
          }
        />
        <JsonEditor label="Metadata" value={metadataText} onChange={setMetadataText} parsed={metadata} rows={3} />
        <ErrorBanner error={save.error} />
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={!isValid || save.isPending}>
            {save.isPending ? "Saving…" : editing ? `Save as version ${editing.version + 1}` : "Create assistant"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
