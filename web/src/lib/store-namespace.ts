/** A namespace as labels (outermost first), read from what a person types and written back. */

export type NamespaceInput = { ok: true; labels: string[] } | { ok: false; message: string };

/**
 * Reads "users.alice.memories" or "users/alice/memories" as labels. Dots and slashes both
 * separate labels (REST writes namespaces with dots; paths are what people expect), so neither
 * can be part of a label typed here.
 */
export function parseNamespace(text: string): NamespaceInput {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: "A namespace needs at least one label, e.g. users.alice" };
  const labels = trimmed.split(/[./]/).map((label) => label.trim());
  if (labels.some((label) => label === "")) return { ok: false, message: "A label cannot be empty (two separators in a row, or one at an end)" };
  return { ok: true, labels };
}

export function namespacePath(labels: readonly string[]): string {
  return labels.join(".");
}

export function sameNamespace(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((label, index) => label === b[index]);
}

/** Minutes left until an expiry, rounded up (what a TTL field shows for an item that has one). */
export function minutesUntil(iso: string, now: Date = new Date()): number {
  return Math.max(1, Math.ceil((new Date(iso).getTime() - now.getTime()) / 60_000));
}

/** A TTL field's text: empty, or a positive number of minutes. */
export type TtlInput = { ok: true; minutes: number | null } | { ok: false; message: string };

export function parseTtlMinutes(text: string): TtlInput {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, minutes: null };
  const minutes = Number(trimmed);
  if (!Number.isFinite(minutes) || minutes <= 0) return { ok: false, message: "A TTL is a positive number of minutes" };
  return { ok: true, minutes };
}
