import { useSyncExternalStore } from "react";

/**
 * The API key lives in sessionStorage only: it survives reloads of this tab and is gone when the
 * browser session ends, and it is never written anywhere longer-lived (no localStorage, no
 * cookie the server would receive on static requests).
 */
const STORAGE_KEY = "hangar.apiKey";

interface KeyState {
  key: string | null;
  /** The server answered 401: the console must ask for a (new) key. */
  isKeyRequired: boolean;
  /** Bumped whenever the key changes, so queries re-run with it. */
  generation: number;
}

let state: KeyState = { key: readStoredKey(), isKeyRequired: false, generation: 0 };
const listeners = new Set<() => void>();

function readStoredKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled: the key lives for this page only
  }
}

function update(next: Partial<KeyState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export function currentApiKey(): string | null {
  return state.key;
}

export function saveApiKey(key: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Kept in memory only.
  }
  update({ key, isKeyRequired: false, generation: state.generation + 1 });
}

export function forgetApiKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
  update({ key: null, generation: state.generation + 1 });
}

/** Called by the transports when the server refuses the request for want of a valid key. */
export function reportKeyRefused(): void {
  if (!state.isKeyRequired) update({ isKeyRequired: true });
}

export function useApiKeyState(): KeyState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
