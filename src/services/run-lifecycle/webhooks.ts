import { InvalidInputError } from "../../domain/errors.js";
import { describeRun } from "../../domain/run-description.js";
import type { Run } from "../../domain/run.js";
import { webhookPolicyProblem } from "../../domain/webhook.js";
import type { ServiceContext } from "../service-context.js";

/**
 * Run webhooks, service side: the deployment's URL policy applied when a run or cron is created
 * (what survives DNS is checked again at each delivery, webhooks/webhook-sender.ts), and the
 * message a finished run queues in the outbox, in the same statement that records its outcome
 * (settle-run.ts). Delivery, signing and retries: webhooks/webhook-dispatcher.ts.
 */

/** INVALID_INPUT naming `webhook` when the deployment's policy refuses the URL. */
export function requireAllowedWebhook(ctx: ServiceContext, webhook: string | null | undefined): void {
  if (webhook == null || !ctx.webhookPolicy) return;
  const problem = webhookPolicyProblem(webhook, ctx.webhookPolicy);
  if (problem) throw new InvalidInputError(problem);
}

/**
 * What a finished run's webhook delivers: the run as LangGraph Platform describes it (status
 * included), once its updated_at is known (the settle statement stamps it as it is sent); null
 * when the run has no webhook.
 */
export function runWebhookMessage(run: Omit<Run, "updatedAt">): ((updatedAt: Date) => { url: string; body: string }) | null {
  const url = run.kwargs.webhook;
  if (!url) return null;
  return (updatedAt) => ({ url, body: JSON.stringify(describeRun({ ...run, updatedAt })) });
}
