/**
 * A run's webhook: an http(s) URL, or a path on this server itself ("/my/route", as LangGraph's
 * server accepts), which is delivered in-process to the deployment's custom routes (http.app).
 * One rule for every transport; returns the problem, or null when the webhook is acceptable.
 */
export const WEBHOOK_RULE = "webhook must be an http(s) URL or a path on this server starting with /";

export function webhookProblem(webhook: string): string | null {
  if (isServerPath(webhook)) return null;
  try {
    const { protocol } = new URL(webhook);
    return protocol === "http:" || protocol === "https:" ? null : WEBHOOK_RULE;
  } catch {
    return WEBHOOK_RULE;
  }
}

/** "/custom/webhook" (not "//host/…", which browsers read as another host). */
export function isServerPath(webhook: string): boolean {
  return webhook.startsWith("/") && !webhook.startsWith("//");
}
