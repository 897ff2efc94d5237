import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { resolveWebhookSettings } from "../../src/graphs/webhooks-config.js";
import { parseWebhookSecret, signWebhook } from "../../src/domain/webhook-signature.js";
import { addressProblem, DEFAULT_WEBHOOK_URL_POLICY, webhookPolicyProblem, type WebhookUrlPolicy } from "../../src/domain/webhook.js";

const policy = (overrides: Partial<WebhookUrlPolicy> = {}): WebhookUrlPolicy => ({ ...DEFAULT_WEBHOOK_URL_POLICY, ...overrides });

describe("webhookPolicyProblem: where a webhook may go, judged before any run is created", () => {
  const refused: Array<[string, string, RegExp]> = [
    ["IPv4 loopback", "http://127.0.0.1:8080/hook", /loopback/],
    ["another loopback address", "http://127.1.2.3/hook", /loopback/],
    ["IPv6 loopback", "http://[::1]:8080/hook", /loopback/],
    ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/hook", /loopback/],
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/", /link-local/],
    ["a private address", "http://10.0.0.1/hook", /private/],
    ["another private range", "https://192.168.1.20/hook", /private/],
    ["the unspecified address", "http://0.0.0.0:2024/hook", /unspecified/],
    ["a unique-local IPv6 address", "http://[fd00::1]/hook", /unique-local/],
    ["a loopback name", "http://localhost:2024/hook", /loopback name/],
    ["a *.localhost name", "http://api.localhost/hook", /loopback name/],
    ["a decimal-encoded loopback (the URL parser normalizes it)", "http://2130706433/hook", /loopback/],
    ["credentials in the URL", "https://user:pass@example.com/hook", /credentials/],
  ];
  it.each(refused)("refuses %s", (_name, url, message) => {
    const problem = webhookPolicyProblem(url, policy());
    expect(problem).toMatch(/^webhook/);
    expect(problem).toMatch(message);
  });

  it("accepts public hosts and paths of this server by default", () => {
    expect(webhookPolicyProblem("https://hooks.example.com/run-done", policy())).toBeNull();
    expect(webhookPolicyProblem("http://93.184.216.34/hook", policy())).toBeNull();
    expect(webhookPolicyProblem("/custom/hook", policy())).toBeNull();
  });

  it("allows non-public addresses only inside HANGAR_WEBHOOK_ALLOWED_NETWORKS", () => {
    const allowing = policy({ allowedNetworks: ["127.0.0.1/32", "10.0.0.0/8"] });
    expect(webhookPolicyProblem("http://127.0.0.1:9/hook", allowing)).toBeNull();
    expect(webhookPolicyProblem("http://10.20.30.40/hook", allowing)).toBeNull();
    expect(webhookPolicyProblem("http://127.0.0.2/hook", allowing)).toMatch(/loopback/);
    expect(webhookPolicyProblem("http://[::1]/hook", allowing)).toMatch(/loopback/);
    expect(addressProblem("::ffff:10.1.1.1", ["10.0.0.0/8"])).toBeNull();
  });

  it("applies langgraph.json webhooks.url: require_https, allowed_domains, allowed_ports, max_url_length, disable_loopback", () => {
    expect(webhookPolicyProblem("http://hooks.example.com/x", policy({ requireHttps: true }))).toMatch(/https/);
    expect(webhookPolicyProblem("https://hooks.example.com/x", policy({ requireHttps: true }))).toBeNull();
    const domains = policy({ allowedDomains: ["hooks.example.com", "*.mycorp.com"] });
    expect(webhookPolicyProblem("https://hooks.example.com/x", domains)).toBeNull();
    expect(webhookPolicyProblem("https://a.mycorp.com/x", domains)).toBeNull();
    expect(webhookPolicyProblem("https://mycorp.com/x", domains)).toMatch(/allowed_domains/);
    expect(webhookPolicyProblem("https://evil.com/x", domains)).toMatch(/allowed_domains/);
    const ports = policy({ allowedPorts: [443, 8443] });
    expect(webhookPolicyProblem("https://hooks.example.com/x", ports)).toBeNull();
    expect(webhookPolicyProblem("https://hooks.example.com:8443/x", ports)).toBeNull();
    expect(webhookPolicyProblem("http://hooks.example.com/x", ports)).toMatch(/port 80/);
    expect(webhookPolicyProblem(`https://hooks.example.com/${"x".repeat(100)}`, policy({ maxUrlLength: 64 }))).toMatch(/limit is 64/);
    expect(webhookPolicyProblem("/custom/hook", policy({ disableLoopback: true }))).toMatch(/disable_loopback/);
  });
});

describe("resolveWebhookSettings: langgraph.json webhooks", () => {
  it("resolves ${{ env.VAR }} header templates from the environment, within env_prefix", () => {
    const settings = resolveWebhookSettings(
      { headers: { Authorization: "Bearer ${{ env.LG_WEBHOOK_TOKEN }}", "X-Pair": "${{env.LG_WEBHOOK_A}}-${{ env.LG_WEBHOOK_B }}", "X-Plain": "yes" } },
      { LG_WEBHOOK_TOKEN: "t0k", LG_WEBHOOK_A: "a", LG_WEBHOOK_B: "b" },
      [],
    );
    expect(settings.headers).toEqual({ Authorization: "Bearer t0k", "X-Pair": "a-b", "X-Plain": "yes" });
    expect(settings.policy).toEqual(DEFAULT_WEBHOOK_URL_POLICY);
  });

  it("refuses a template outside env_prefix or naming an unset variable", () => {
    expect(() => resolveWebhookSettings({ headers: { X: "${{ env.DATABASE_URL }}" } }, { DATABASE_URL: "postgres://secret" }, [])).toThrow(
      /webhooks\.headers\.X: .*DATABASE_URL.*env_prefix "LG_WEBHOOK_"/,
    );
    expect(() => resolveWebhookSettings({ env_prefix: "HOOK_", headers: { X: "${{ env.LG_WEBHOOK_T }}" } }, { LG_WEBHOOK_T: "t" }, [])).toThrow(
      /env_prefix "HOOK_"/,
    );
    expect(() => resolveWebhookSettings({ headers: { X: "${{ env.LG_WEBHOOK_MISSING }}" } }, {}, [])).toThrow(/LG_WEBHOOK_MISSING is not set/);
  });
});

describe("webhook signatures", () => {
  it("are Standard Webhooks signatures: the reference library verifies them, and refuses a changed body", () => {
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    const body = JSON.stringify({ run_id: "r", status: "success" });
    const headers = signWebhook(parseWebhookSecret(secret), "msg_1", Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ run_id: "r", status: "success" });
    expect(() => new Webhook(secret).verify(body.replace("success", "error"), headers)).toThrow(/signature/i);
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(body, headers)).toThrow(/signature/i);
  });

  it("refuse a secret that is not whsec_ + 24 to 64 base64 bytes", () => {
    expect(() => parseWebhookSecret("hunter2")).toThrow(/whsec_/);
    expect(() => parseWebhookSecret(`whsec_${randomBytes(8).toString("base64")}`)).toThrow(/24 to 64 bytes/);
    expect(() => parseWebhookSecret("whsec_not base64!")).toThrow(/base64/);
  });
});
