import { describe, expect, it } from "vitest";
import { parseMetadataFilter } from "../../web/src/lib/metadata-filter.js";

describe("parseMetadataFilter", () => {
  it("reads key=value pairs, values as JSON when they are JSON", () => {
    expect(parseMetadataFilter("owner=qa-team ticket=4711, urgent=true")).toEqual({ ok: true, value: { owner: "qa-team", ticket: 4711, urgent: true } });
    // Spaces separate pairs: a value with spaces needs the JSON form.
    expect(parseMetadataFilter('name="a b"')).toEqual({ ok: false, message: '"b"" is not key=value (or type a JSON object)' });
  });

  it("reads a JSON object, nested values included", () => {
    expect(parseMetadataFilter('{"owner": {"team": "qa"}}')).toEqual({ ok: true, value: { owner: { team: "qa" } } });
  });

  it("is empty for blank text and explains what it cannot read", () => {
    expect(parseMetadataFilter("  ")).toEqual({ ok: true, value: null });
    expect(parseMetadataFilter("owner")).toEqual({ ok: false, message: '"owner" is not key=value (or type a JSON object)' });
    expect(parseMetadataFilter("{owner: 1}")).toMatchObject({ ok: false, message: expect.stringMatching(/^Invalid JSON/) });
  });
});
