/**
 * A value for a `CAST($n AS jsonb)` parameter. node-postgres would send a JS array as a
 * PostgreSQL array literal and a JS string as text (which the cast then reads as JSON, so
 * "abc" fails and "{}" turns into an object): every jsonb value is sent as its JSON text instead.
 * undefined and null are SQL NULL, as TypeORM stored a nullable jsonb column's null.
 */
export function jsonParameter(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
