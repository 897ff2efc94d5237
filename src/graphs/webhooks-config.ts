import { z } from "zod";
import { DEFAULT_WEBHOOK_URL_POLICY, type WebhookUrlPolicy } from "../domain/webhook.js";

/**
 * langgraph.json `webhooks`, as LangGraph's server reads it (langgraph-cli's WebhooksConfig):
 * `url` is the policy for webhook URLs callers give (domain/webhook.ts), `headers` are sent with
 * every delivery, and their values may hold `${{ env.VAR }}` templates, resolved once at start
 * from the environment, only for names that start with `env_prefix` (default `LG_WEBHOOK_`), so
 * a config cannot leak arbitrary variables (a database password) to a receiver.
 */
export const WebhooksConfigSchema = z.strictObject({
  env_prefix: z.string().min(1).optional(),
  url: z
    .strictObject({
      require_https: z.boolean().optional(),
      allowed_domains: z.array(z.string().min(1)).optional(),
      allowed_ports: z.array(z.number().int().min(1).max(65535)).optional(),
      max_url_length: z.number().int().positive().optional(),
      disable_loopback: z.boolean().optional(),
    })
    .optional(),
  headers: z.record(z.string().min(1), z.string()).optional(),
});

export type WebhooksConfig = z.infer<typeof WebhooksConfigSchema>;

const DEFAULT_ENV_PREFIX = "LG_WEBHOOK_";
const TEMPLATE = /\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export interface WebhookSettings {
  policy: WebhookUrlPolicy;
  /** Static headers of every delivery, templates resolved. */
  headers: Readonly<Record<string, string>>;
}

/**
 * The deployment's webhook settings. Throws (stopping start-up) naming the header when a template
 * names a variable outside `env_prefix` or one that is not set: a delivery without its
 * Authorization header would only fail later, at every receiver.
 */
export function resolveWebhookSettings(
  config: WebhooksConfig | undefined,
  env: NodeJS.ProcessEnv,
  allowedNetworks: readonly string[],
): WebhookSettings {
  const url = config?.url ?? {};
  const prefix = config?.env_prefix ?? DEFAULT_ENV_PREFIX;
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(config?.headers ?? {})) {
    headers[name] = template.replace(TEMPLATE, (_match, variable: string) => {
      if (!variable.startsWith(prefix)) {
        throw new Error(`langgraph.json webhooks.headers.${name}: \${{ env.${variable} }} does not start with env_prefix "${prefix}"`);
      }
      const value = env[variable];
      if (value === undefined || value === "") {
        throw new Error(`langgraph.json webhooks.headers.${name}: environment variable ${variable} is not set`);
      }
      return value;
    });
  }
  return {
    policy: Object.freeze({
      requireHttps: url.require_https ?? DEFAULT_WEBHOOK_URL_POLICY.requireHttps,
      allowedDomains: url.allowed_domains ?? [],
      allowedPorts: url.allowed_ports ?? [],
      maxUrlLength: url.max_url_length ?? DEFAULT_WEBHOOK_URL_POLICY.maxUrlLength,
      disableLoopback: url.disable_loopback ?? DEFAULT_WEBHOOK_URL_POLICY.disableLoopback,
      allowedNetworks,
    }),
    headers: Object.freeze(headers),
  };
}
