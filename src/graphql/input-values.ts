/**
 * Clients may send an explicit null for an optional input field; for the services an explicit
 * null means "not given" except where a field documents otherwise (description: null clears it).
 */
export function omitNull<T>(value: T | null | undefined): T | undefined {
  return value ?? undefined;
}
