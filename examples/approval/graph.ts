import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, END, interrupt, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { HumanInterrupt, HumanResponse } from "@langchain/langgraph/prebuilt";
import { createChatModel } from "../../src/models/chat-model-factory.js";

/**
 * Human in the loop, as LangGraph documents it: the model drafts a reply, then the graph stops in
 * `interrupt()` with a HumanInterrupt (LangGraph's prebuilt shape, also read by Agent Inbox) and
 * waits. The person accepts the draft, edits it, answers with feedback (the model drafts again)
 * or ignores it (nothing is sent). The console shows these choices on the interrupted run.
 * Uses the offline model unless the thread's context names another.
 */
const ApprovalState = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** The reply awaiting review. */
  draft: Annotation<string>({ reducer: (_left, right) => right, default: () => "" }),
  /** What the reviewer decided: accept, edit, response or ignore. */
  decision: Annotation<string>({ reducer: (_left, right) => right, default: () => "" }),
});

type State = typeof ApprovalState.State;

async function draftReply(state: State): Promise<Partial<State>> {
  const model = await createChatModel({ modelName: "offline-echo" });
  const prompt: BaseMessage[] = [new SystemMessage("Draft a short reply to the customer."), ...state.messages];
  const response = await model.invoke(prompt);
  return { draft: typeof response.content === "string" ? response.content : JSON.stringify(response.content) };
}

function review(state: State): Partial<State> {
  const request: HumanInterrupt = {
    action_request: { action: "send_reply", args: { reply: state.draft } },
    config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
    description: "Send this reply to the customer?",
  };
  // Agent Inbox sends a list of responses, one per request; a single object is taken as well.
  const answer = interrupt<HumanInterrupt[], HumanResponse[] | HumanResponse>([request]);
  const response = Array.isArray(answer) ? answer[0] : answer;
  switch (response?.type) {
    case "accept":
      return { decision: "accept" };
    case "edit": {
      const args = response.args as { args?: { reply?: unknown } } | null;
      return { decision: "edit", draft: String(args?.args?.reply ?? state.draft) };
    }
    case "response":
      return { decision: "response", messages: [new HumanMessage(`Feedback on the draft: ${String(response.args)}`)] };
    default:
      return { decision: "ignore" };
  }
}

function send(state: State): Partial<State> {
  return { messages: [new AIMessage(state.draft)] };
}

export const graph = new StateGraph(ApprovalState)
  .addNode("write_draft", draftReply)
  .addNode("review", review)
  .addNode("send", send)
  .addEdge(START, "write_draft")
  .addEdge("write_draft", "review")
  .addConditionalEdges("review", (state: State) => (state.decision === "response" ? "write_draft" : state.decision === "ignore" ? END : "send"), [
    "write_draft",
    "send",
    END,
  ])
  .addEdge("send", END)
  .compile({ name: "approval" });
