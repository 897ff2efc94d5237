import ipaddr from "ipaddr.js";

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

/**
 * Where a deployment lets webhooks go: langgraph.json `webhooks.url` (LangGraph's
 * WebhookUrlPolicy, same names and meaning) plus Hangar's HANGAR_WEBHOOK_ALLOWED_NETWORKS.
 * Addresses that are not public unicast (loopback, private, link-local, cloud metadata, CGNAT,
 * unique-local, multicast, reserved) are refused unless they fall in `allowedNetworks`: a
 * webhook is a request the server makes on a caller's behalf, so without this rule any caller
 * could make it probe the server's own network.
 */
export interface WebhookUrlPolicy {
  /** `require_https`: absolute URLs must be https. */
  requireHttps: boolean;
  /** `allowed_domains`: exact hosts or `*.example.com` (subdomains only); empty: any public host. */
  allowedDomains: readonly string[];
  /** `allowed_ports`: empty: any; a URL without a port counts as 443 (https) or 80 (http). */
  allowedPorts: readonly number[];
  /** `max_url_length`, in characters. */
  maxUrlLength: number;
  /** `disable_loopback`: refuse paths of this server ("/my/route"). */
  disableLoopback: boolean;
  /** CIDR ranges where non-public addresses are allowed anyway (HANGAR_WEBHOOK_ALLOWED_NETWORKS). */
  allowedNetworks: readonly string[];
}

/** LangGraph's server sets no length limit we know of; 4,096 is longer than any real receiver URL. */
export const DEFAULT_WEBHOOK_MAX_URL_LENGTH = 4096;

export const DEFAULT_WEBHOOK_URL_POLICY: WebhookUrlPolicy = Object.freeze({
  requireHttps: false,
  allowedDomains: [],
  allowedPorts: [],
  maxUrlLength: DEFAULT_WEBHOOK_MAX_URL_LENGTH,
  disableLoopback: false,
  allowedNetworks: [],
});

/**
 * The first policy rule a webhook breaks, as the message every transport answers with (naming
 * `webhook`); null when the policy allows it. Pure: hostnames are judged by name here (literal
 * addresses, and `localhost` / `*.localhost`, which RFC 6761 reserves for loopback); what a name
 * resolves to is checked again at each delivery (addressProblem), after DNS.
 */
export function webhookPolicyProblem(webhook: string, policy: WebhookUrlPolicy): string | null {
  const basic = webhookProblem(webhook);
  if (basic) return basic;
  if (webhook.length > policy.maxUrlLength) return `webhook is ${webhook.length} characters long; the limit is ${policy.maxUrlLength}`;
  if (isServerPath(webhook)) {
    return policy.disableLoopback ? "webhook: paths of this server are disabled (langgraph.json webhooks.url.disable_loopback)" : null;
  }
  const url = new URL(webhook);
  if (policy.requireHttps && url.protocol !== "https:") return "webhook must be an https URL (langgraph.json webhooks.url.require_https)";
  if (url.username || url.password) return "webhook must not carry credentials in its URL";
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (policy.allowedDomains.length > 0 && !policy.allowedDomains.some((domain) => matchesDomain(host, domain))) {
    return `webhook host ${host} is not in langgraph.json webhooks.url.allowed_domains`;
  }
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (policy.allowedPorts.length > 0 && !policy.allowedPorts.includes(port)) {
    return `webhook port ${port} is not in langgraph.json webhooks.url.allowed_ports`;
  }
  if (ipaddr.isValid(host)) return addressProblem(host, policy.allowedNetworks);
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) {
    return `webhook host ${host} is a loopback name; ${ALLOW_HINT}`;
  }
  return null;
}

const ALLOW_HINT = "webhooks may not reach loopback, private, link-local or metadata addresses unless HANGAR_WEBHOOK_ALLOWED_NETWORKS includes them";

/**
 * Why a webhook may not connect to `address` (an IP literal or a resolved address), or null.
 * Only public unicast passes; IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 it is.
 */
export function addressProblem(address: string, allowedNetworks: readonly string[]): string | null {
  const parsed = ipaddr.process(address);
  if (allowedNetworks.some((network) => inNetwork(parsed, network))) return null;
  const range = parsed.range();
  if (range === "unicast") return null;
  return `webhook address ${parsed.toString()} is ${RANGE_NAMES[range] ?? `a ${range} address`}; ${ALLOW_HINT}`;
}

/** A list such as "127.0.0.1/32, 10.0.0.0/8": the problem with it, or null. */
export function allowedNetworksProblem(networks: readonly string[]): string | null {
  for (const network of networks) {
    try {
      ipaddr.parseCIDR(network);
    } catch {
      return `"${network}" is not a CIDR range such as 10.0.0.0/8 or fd00::/8`;
    }
  }
  return null;
}

const RANGE_NAMES: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address (cloud metadata services live there)",
  uniqueLocal: "a unique-local (private) address",
  unspecified: "the unspecified address",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
};

function inNetwork(address: ipaddr.IPv4 | ipaddr.IPv6, network: string): boolean {
  const [base, bits] = ipaddr.parseCIDR(network);
  return address.kind() === base.kind() && address.match(base, bits);
}

/** "hooks.example.com" matches itself; "*.example.com" matches subdomains, not the apex. */
function matchesDomain(host: string, domain: string): boolean {
  const name = host.toLowerCase();
  const pattern = domain.toLowerCase();
  return pattern.startsWith("*.") ? name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1 : name === pattern;
}
