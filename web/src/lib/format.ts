/** Display formats shared by every page: money, tokens, durations, times, ids. */

const EM_DASH = "—";

/**
 * USD from the API's exact decimal strings. LLM calls cost fractions of a cent, so small amounts
 * keep two significant digits ($0.0000055) instead of rounding to $0.00.
 */
export function formatUsd(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined || amount === "") return EM_DASH;
  const value = typeof amount === "number" ? amount : Number(amount);
  if (!Number.isFinite(value)) return String(amount);
  if (value === 0) return "$0";
  const sign = value < 0 ? "-" : "";
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return `${sign}$${magnitude.toLocaleString("en-US", { maximumFractionDigits: 2 })}`;
  if (magnitude >= 0.01) return `${sign}$${trimZeros(magnitude.toFixed(4))}`;
  // Two significant digits without exponent notation: 0.0000055, not 5.5e-6.
  const decimals = Math.min(20, 1 - Math.floor(Math.log10(magnitude)));
  return `${sign}$${trimZeros(magnitude.toFixed(decimals))}`;
}

function trimZeros(fixed: string): string {
  return fixed.includes(".") ? fixed.replace(/0+$/, "").replace(/\.$/, "") : fixed;
}

export function formatTokens(count: number | null | undefined): string {
  if (count === null || count === undefined) return EM_DASH;
  return Math.round(count).toLocaleString("en-US");
}

export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return EM_DASH;
  if (ms < 1) return "<1 ms";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m ${Math.round((ms % 60_000) / 1000)}s`;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago", then the date. */
export function formatTimeAgo(iso: string | null | undefined, now: Date): string {
  if (!iso) return EM_DASH;
  const then = new Date(iso);
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (Number.isNaN(seconds)) return iso;
  if (seconds < 45) return "just now";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  if (seconds < 7 * 86_400) return `${Math.round(seconds / 86_400)} d ago`;
  return then.toISOString().slice(0, 10);
}

/** "in 5 min", "in 3 h", "in 2 d" for an instant ahead; "due now" once it is (about) reached. */
export function formatTimeUntil(iso: string | null | undefined, now: Date): string {
  if (!iso) return EM_DASH;
  const seconds = Math.round((new Date(iso).getTime() - now.getTime()) / 1000);
  if (Number.isNaN(seconds)) return iso;
  if (seconds < 30) return "due now";
  if (seconds < 90) return "in 1 min";
  if (seconds < 3600) return `in ${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `in ${Math.round(seconds / 3600)} h`;
  return `in ${Math.round(seconds / 86_400)} d`;
}

/** A readable local timestamp (seconds precision) for tables and details. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return EM_DASH;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The first block of a UUID: enough to tell rows apart, with the full id in a title. */
export function shortId(id: string | null | undefined): string {
  if (!id) return EM_DASH;
  return id.length > 8 ? id.slice(0, 8) : id;
}

/**
 * The last characters of a time-ordered id (checkpoint ids are UUIDv6: consecutive ones share
 * their first blocks, so only the end tells them apart).
 */
export function tailId(id: string | null | undefined): string {
  if (!id) return EM_DASH;
  return id.length > 8 ? `…${id.slice(-8)}` : id;
}

/**
 * Exact sum of decimal strings ("0.0000055" + "0.12"), for totals shown as money: the API keeps
 * costs exact, and adding them as floats would print 0.30000000000000004.
 */
export function sumDecimals(amounts: ReadonlyArray<string | null | undefined>): string {
  let scale = 0;
  const parsed: Array<{ digits: bigint; scale: number }> = [];
  for (const amount of amounts) {
    const match = amount ? /^(-?)(\d*)(?:\.(\d+))?$/.exec(amount.trim()) : null;
    if (!match) continue;
    const [, sign, whole, fraction = ""] = match;
    const digits = BigInt(`${sign}${whole || "0"}${fraction}`);
    parsed.push({ digits, scale: fraction.length });
    scale = Math.max(scale, fraction.length);
  }
  const total = parsed.reduce((sum, item) => sum + item.digits * 10n ** BigInt(scale - item.scale), 0n);
  const negative = total < 0n;
  const text = (negative ? -total : total).toString().padStart(scale + 1, "0");
  const whole = text.slice(0, text.length - scale);
  const fraction = text.slice(text.length - scale).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/**
 * A count with its noun, singular for exactly one: `countOf(1, "thread")` is "1 thread",
 * `countOf(3, "thread")` "3 threads". Irregular plurals are given: `countOf(2, "entry", "entries")`.
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? singular : plural}`;
}
