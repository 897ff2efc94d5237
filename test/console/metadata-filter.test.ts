import { describe, expect, it } from "vitest";
import { parseMetadataFilter } from "../../web/src/lib/metadata-filter.js";

describe("parseMetadataFilter", () => {
  it("matches a typed value stored as text or as the JSON it reads as", () => {
    expect(parseMetadataFilter("ticket=4711")).toEqual({ ok: true, alternatives: [{ ticket: "4711" }, { ticket: 4711 }] });
    expect(parseMetadataFilter("owner=qa-team ticket=4711, urgent=true")).toEqual({
      ok: true,
      alternatives: [
        { owner: "qa-team", ticket: "4711", urgent: "true" },
        { owner: "qa-team", ticket: "4711", urgent: true },
        { owner: "qa-team", ticket: 4711, urgent: "true" },
        { owner: "qa-team", ticket: 4711, urgent: true },
      ],
    });
    // Quoted, the value is text only.
    expect(parseMetadataFilter('ticket="4711"')).toEqual({ ok: true, alternatives: [{ ticket: "4711" }] });
    // Spaces separate pairs: a value with spaces needs the JSON form.
    expect(parseMetadataFilter('name="a b"')).toEqual({ ok: false, message: '"b"" is not key=value (or type a JSON object)' });
  });

  it("reads a JSON object exactly as written, nested values included", () => {
    expect(parseMetadataFilter('{"owner": {"team": "qa"}, "ticket": 4711}')).toEqual({ ok: true, alternatives: [{ owner: { team: "qa" }, ticket: 4711 }] });
  });

  it("refuses more combinations than the server takes, pointing to the JSON form", () => {
    const sevenAmbiguous = Array.from({ length: 7 }, (_, index) => `k${index}=${index}`).join(" ");
    expect(parseMetadataFilter(sevenAmbiguous)).toEqual({ ok: false, message: expect.stringMatching(/type a JSON object instead/) });
    expect(parseMetadataFilter(sevenAmbiguous.split(" ").slice(0, 6).join(" "))).toMatchObject({ ok: true, alternatives: { length: 64 } });
  });

  it("is empty for blank text and explains what it cannot read", () => {
    expect(parseMetadataFilter("  ")).toEqual({ ok: true, alternatives: null });
    expect(parseMetadataFilter("owner")).toEqual({ ok: false, message: '"owner" is not key=value (or type a JSON object)' });
    expect(parseMetadataFilter("{owner: 1}")).toMatchObject({ ok: false, message: expect.stringMatching(/^Invalid JSON/) });
  });
});
