import { useState, type FormEvent } from "react";
import { saveApiKey } from "../api/api-key.js";
import { GRAPHQL_PATH } from "../api/graphql-client.js";
import { Dialog } from "./dialog.js";

/**
 * Shown when the server answers 401: asks for an API key, checks it with a trivial query before
 * keeping it, and stores it for this browser session only (sessionStorage).
 */
export function KeyPrompt({ hadKey }: { hadKey: boolean }) {
  const [key, setKey] = useState("");
  const [problem, setProblem] = useState<string | null>(hadKey ? "The server refused the stored key." : null);
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
        headers: { "content-type": "application/json", "x-api-key": candidate },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      if (response.status === 401) setProblem("That key was refused. Check it and try again.");
      else if (!response.ok) setProblem(`The server answered ${response.status}.`);
      else saveApiKey(candidate);
    } catch {
      setProblem("The server cannot be reached.");
    } finally {
      setChecking(false);
    }
  };

  return (
    <Dialog title="API key required" onClose={() => undefined} isDismissible={false}>
      <form className="key-form" onSubmit={submit}>
        <p>
          This Hangar server is protected by API keys (<code>HANGAR_API_KEYS</code>). Enter one to continue. It is kept
          for this browser session only and sent as <code>x-api-key</code>.
        </p>
        <div className="field">
          <label htmlFor="api-key-input">API key</label>
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
