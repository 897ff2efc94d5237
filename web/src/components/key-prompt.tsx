import { useEffect, useState, type FormEvent } from "react";
import { saveApiKey } from "../api/api-key.js";
import { GRAPHQL_PATH } from "../api/graphql-client.js";
import { MOUNT_PREFIX } from "../lib/mount-prefix.js";
import { Dialog } from "./dialog.js";

/** What the server asks for, from /info's `hangar.auth` (open: it needs no credential to read). */
type CredentialKind = "api-key" | "token" | "either";

const WORDING: Record<CredentialKind, { title: string; label: string; explanation: string }> = {
  "api-key": {
    title: "API key required",
    label: "API key",
    explanation: "This Hangar server is protected by API keys (HANGAR_API_KEYS). Enter one to continue.",
  },
  token: {
    title: "Sign-in token required",
    label: "Access token",
    explanation: "This deployment authenticates users with its own auth module. Paste the access token your login gives you (for example a JWT).",
  },
  either: {
    title: "API key or token required",
    label: "API key or access token",
    explanation: "This deployment accepts an operator's API key (HANGAR_API_KEYS) or a user's access token from its own login.",
  },
};

function credentialKindOf(auth: unknown): CredentialKind {
  if (auth === "custom") return "token";
  if (auth === "api-key+custom") return "either";
  return "api-key";
}

/**
 * Shown when the server answers 401: asks for an API key or, on a deployment with custom auth, a
 * user's token; checks it with a trivial query before keeping it, and stores it for this browser
 * session only (sessionStorage). Either is sent as a bearer token.
 */
export function KeyPrompt({ hadKey }: { hadKey: boolean }) {
  const [kind, setKind] = useState<CredentialKind>("api-key");
  useEffect(() => {
    fetch(`${MOUNT_PREFIX}/info`)
      .then((response) => (response.ok ? response.json() : null))
      .then((info: { hangar?: { auth?: unknown } } | null) => setKind(credentialKindOf(info?.hangar?.auth)))
      .catch(() => undefined);
  }, []);
  const wording = WORDING[kind];
  const [key, setKey] = useState("");
  const [problem, setProblem] = useState<string | null>(hadKey ? "The server refused the stored credential." : null);
  const [isChecking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const candidate = key.trim();
    if (!candidate) return;
    setChecking(true);
    setProblem(null);
    try {
      const response = await fetch(GRAPHQL_PATH, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${candidate}` },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      if (response.status === 401) setProblem(`That ${kind === "token" ? "token" : "key"} was refused. Check it and try again.`);
      else if (!response.ok) setProblem(`The server answered ${response.status}.`);
      else saveApiKey(candidate);
    } catch {
      setProblem("The server cannot be reached.");
    } finally {
      setChecking(false);
    }
  };

  return (
    <Dialog title={wording.title} onClose={() => undefined} isDismissible={false}>
      <form className="key-form" onSubmit={submit}>
        <p>
          {wording.explanation} It is kept for this browser session only and sent as <code>Authorization: Bearer</code>.
        </p>
        <div className="field">
          <label htmlFor="api-key-input">{wording.label}</label>
          <input
            id="api-key-input"
            type="password"
            autoComplete="off"
            value={key}
            onChange={(event) => setKey(event.target.value)}
            aria-invalid={problem !== null}
          />
          {problem && (
            <p className="field-error" role="alert">
              {problem}
            </p>
          )}
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={isChecking || key.trim() === ""}>
            {isChecking ? "Checking…" : "Continue"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
