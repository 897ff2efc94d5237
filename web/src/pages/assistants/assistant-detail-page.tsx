import { useState } from "react";
import { execute } from "../../api/graphql-client.js";
import { useAction, useQuery } from "../../api/use-query.js";
import { ConfirmDialog } from "../../components/confirm-dialog.js";
import { CopyId } from "../../components/copy-id.js";
import { ErrorBanner, Loading } from "../../components/feedback.js";
import { GraphPanel } from "../../components/graph-panel.js";
import { JsonView } from "../../components/json-view.js";
import { PageHeader } from "../../components/page-header.js";
import { TimeAgo } from "../../components/time-ago.js";
import { AssistantDetailDocument, DeleteAssistantDocument, SetAssistantVersionDocument } from "../../generated/graphql.js";
import { routePath } from "../../lib/routes.js";
import { Link, navigate } from "../../router.js";
import { AssistantFormDialog } from "./assistant-form-dialog.js";
import { VersionHistory } from "./version-history.js";

/** One assistant: its active configuration, its versions (with diffs), edit and delete. */
export function AssistantDetailPage({ assistantId }: { assistantId: string }) {
  const detail = useQuery(AssistantDetailDocument, { assistantId });
  const [isEditing, setEditing] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  const [deleteThreads, setDeleteThreads] = useState(false);

  const setVersion = useAction(async (version: number) => {
    await execute(SetAssistantVersionDocument, { input: { assistantId, version } });
    detail.refetch();
  });
  const remove = useAction(async () => {
    await execute(DeleteAssistantDocument, { input: { assistantId, deleteThreads } });
    navigate(routePath({ page: "assistants" }));
  });

  const assistant = detail.data?.assistant;
  const back = <Link to={routePath({ page: "assistants" })}>← Assistants</Link>;
  if (!assistant) {
    return (
      <div className="page">
        <PageHeader title="Assistant" back={back} />
        {detail.isLoading ? <Loading /> : <ErrorBanner error={detail.error} onRetry={detail.refetch} />}
      </div>
    );
  }
  const versions = assistant.versions.edges.map((edge) => edge.node);
  return (
    <div className="page">
      <PageHeader
        back={back}
        title={assistant.name}
        subtitle={
          <>
            <span className="chip">{assistant.graphId}</span>
            <span className="badge badge-good" data-testid="active-version">
              v{assistant.version} active
            </span>
            <CopyId id={assistant.assistantId} />
            <span className="muted">
              updated <TimeAgo iso={assistant.updatedAt} />
            </span>
          </>
        }
        actions={
          <>
            <Link className="button" to={routePath({ page: "playground", assistantId: assistant.assistantId, threadId: null })}>
              Chat with it
            </Link>
            <button type="button" className="button button-primary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="button button-danger-quiet" onClick={() => setDeleting(true)}>
              Delete
            </button>
          </>
        }
      />
      <ErrorBanner error={detail.error} onRetry={detail.refetch} />
      {assistant.description && <p className="description">{assistant.description}</p>}
      <div className="grid-2">
        <section className="panel">
          <h2 className="panel-title">Context</h2>
          <JsonView value={assistant.context} label="Context" />
        </section>
        <section className="panel">
          <h2 className="panel-title">Metadata</h2>
          <JsonView value={assistant.metadata} label="Metadata" />
          <h2 className="panel-title">Config</h2>
          <JsonView value={assistant.config} label="Config" compact />
        </section>
      </div>
      <GraphPanel assistantId={assistant.assistantId} />
      <VersionHistory
        // A new version resets the comparison to "previous → newest".
        key={versions[0]?.version}
        versions={versions}
        activeVersion={assistant.version}
        onActivate={(version) => void setVersion.run(version)}
        isActivating={setVersion.isPending}
        error={setVersion.error}
      />
      {isEditing && (
        <AssistantFormDialog
          mode={{ kind: "edit", assistant }}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            detail.refetch();
          }}
        />
      )}
      {isDeleting && (
        <ConfirmDialog
          title={`Delete ${assistant.name}?`}
          confirmLabel="Delete assistant"
          isPending={remove.isPending}
          error={remove.error}
          onConfirm={() => void remove.run()}
          onClose={() => setDeleting(false)}
        >
          <p>{versions.length === 1 ? "Its only version is" : `All ${versions.length} versions are`} deleted. Runs already recorded keep their traces.</p>
          <label className="checkbox">
            <input type="checkbox" checked={deleteThreads} onChange={(event) => setDeleteThreads(event.target.checked)} />
            Also delete the threads it created
          </label>
        </ConfirmDialog>
      )}
    </div>
  );
}
