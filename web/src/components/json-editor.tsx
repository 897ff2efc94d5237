import { useId } from "react";
import { prettyJson } from "../lib/json-input.js";
import type { JsonObjectInput } from "../lib/json-input.js";
import type { SchemaIssue } from "../lib/schema-check.js";

interface JsonEditorProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** The parse of `value` (syntax errors are shown here). */
  parsed: JsonObjectInput;
  /** Schema problems of the parsed value, when a schema applies. */
  issues?: SchemaIssue[];
  hint?: string;
  rows?: number;
}

/** A JSON object field: monospace text, syntax errors with line and column, schema issues by path. */
export function JsonEditor({ label, value, onChange, parsed, issues = [], hint, rows = 8 }: JsonEditorProps) {
  const id = useId();
  const problems = parsed.ok ? issues.map((issue) => `${issue.path || "value"} ${issue.message}`) : [];
  const syntax = parsed.ok ? null : parsed.line ? `${parsed.message} (line ${parsed.line}, column ${parsed.column})` : parsed.message;
  const invalid = !parsed.ok || problems.length > 0;
  return (
    <div className="field">
      <div className="field-label-row">
        <label htmlFor={id}>{label}</label>
        <button
          type="button"
          className="link-button"
          disabled={!parsed.ok}
          onClick={() => parsed.ok && onChange(prettyJson(parsed.value))}
        >
          Format
        </button>
      </div>
      <textarea
        id={id}
        className="code-input"
        value={value}
        rows={rows}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        aria-invalid={invalid}
        aria-describedby={`${id}-feedback`}
        onChange={(event) => onChange(event.target.value)}
      />
      <div id={`${id}-feedback`} className="field-feedback" aria-live="polite">
        {syntax && <p className="field-error">{syntax}</p>}
        {problems.length > 0 && (
          <ul className="field-error-list">
            {problems.map((problem) => (
              <li key={problem} className="field-error">
                {problem}
              </li>
            ))}
          </ul>
        )}
        {!invalid && hint && <p className="field-hint">{hint}</p>}
      </div>
    </div>
  );
}
