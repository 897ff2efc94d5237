import type { SortOrder as SortOrderValue } from "../../domain/assistant.js";
import { builder } from "../builder.js";

/** Enums shared by several modules (each module's own enums live with it), and their helper. */

/** GraphQL enum values for a domain's snake_case strings: `created_at` → CREATED_AT. */
export function enumValuesOf<T extends string>(values: readonly T[]) {
  return Object.fromEntries(values.map((value) => [value.toUpperCase(), { value }])) as Record<Uppercase<T>, { value: T }>;
}

export const SortOrder = builder.enumType("SortOrder", {
  values: {
    ASC: { value: "asc" as SortOrderValue },
    DESC: { value: "desc" as SortOrderValue },
  },
});

export const IfExists = builder.enumType("IfExists", {
  description: "What a create does when the id it was given already exists.",
  values: {
    RAISE: { value: "raise" as const, description: "Fail with CONFLICT (the default)." },
    DO_NOTHING: { value: "do_nothing" as const, description: "Return the existing object unchanged." },
  },
});

