import { JsonView } from "../../components/json-view.js";
import type { RenderedMessageFragment } from "../../generated/graphql.js";

type Block = RenderedMessageFragment["content"][number];

const ROLE_LABELS: Record<RenderedMessageFragment["role"], string> = {
  SYSTEM: "System",
  USER: "User",
  ASSISTANT: "Assistant",
  TOOL: "Tool",
  REASONING: "Reasoning",
};

/** One normalized message: its role and each typed content block drawn for what it is. */
export function RenderedMessageView({ message }: { message: RenderedMessageFragment }) {
  const role = message.role.toLowerCase();
  return (
    <article className={`message message-${role === "user" ? "user" : role === "assistant" ? "assistant" : role}`}>
      <header className="message-role">
        {ROLE_LABELS[message.role]}
        {message.name && <span className="muted"> · {message.name}</span>}
        {message.toolCallId && <span className="muted"> · answers {message.toolCallId}</span>}
      </header>
      {message.content.map((block, index) => (
        <ContentBlockView key={index} block={block} />
      ))}
    </article>
  );
}

function ContentBlockView({ block }: { block: Block }) {
  switch (block.__typename) {
    case "TextBlock":
      return <div className="message-text">{block.text}</div>;
    case "ReasoningBlock":
      return (
        <details className="reasoning" open>
          <summary>Reasoning</summary>
          <div className="message-text">{block.text}</div>
        </details>
      );
    case "MediaBlock":
      return <MediaView block={block} />;
    case "ToolCallBlock":
    case "ServerToolCallBlock":
      return (
        <div className="tool-call">
          <span className="tool-call-name">
            {block.__typename === "ServerToolCallBlock" ? "server tool " : "calls "}
            {block.name ?? "tool"}
          </span>
          {block.id && <span className="muted small"> id {block.id}</span>}
          <JsonView value={block.args} label="Tool arguments" compact />
        </div>
      );
    case "ServerToolResultBlock":
      return (
        <div className="tool-call">
          <span className="tool-call-name">result of {block.toolCallId}</span> <span className="muted small">{block.status.toLowerCase()}</span>
          <JsonView value={block.output} label="Tool result" compact />
        </div>
      );
    case "UnknownBlock":
      return (
        <div className="tool-call">
          <span className="tool-call-name">unrecognised block</span>
          <JsonView value={block.original} label="Unrecognised block" compact />
        </div>
      );
    default:
      return null;
  }
}

function MediaView({ block }: { block: Extract<Block, { __typename: "MediaBlock" }> }) {
  const source = block.url ?? (block.base64 ? `data:${block.mimeType ?? "application/octet-stream"};base64,${block.base64}` : null);
  if (block.kind === "IMAGE" && source) {
    return <img className="message-image" src={source} alt={`Image${block.mimeType ? ` (${block.mimeType})` : ""}`} loading="lazy" />;
  }
  return (
    <div className="media-chip">
      {block.kind.toLowerCase()}
      {block.mimeType && <span className="muted"> · {block.mimeType}</span>}
      {block.url && (
        <>
          {" · "}
          <a href={block.url} target="_blank" rel="noreferrer noopener">
            open
          </a>
        </>
      )}
      {!block.url && block.id && <span className="muted"> · file {block.id}</span>}
    </div>
  );
}
