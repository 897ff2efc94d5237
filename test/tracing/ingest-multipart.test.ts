import { gzipSync, zstdCompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeBody, DecodedBodyTooLargeError, UnsupportedEncodingError } from "../../src/tracing/ingest/decode-body.js";
import { MultipartSyntaxError, multipartBoundary, splitMultipart } from "../../src/tracing/ingest/multipart-body.js";
import { collectMultipartRuns, MultipartRunsError } from "../../src/tracing/ingest/multipart-runs.js";

const BOUNDARY = "----LangSmithFormBoundaryabc123";
const RUN_ID = "0f8f3c2e-1111-4a4a-8b8b-000000000001";

function body(parts: Array<{ name: string; data: string | Buffer; type?: string }>): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n`));
    chunks.push(Buffer.from(`Content-Type: ${part.type ?? `application/json; length=${part.data.length}`}\r\n\r\n`));
    chunks.push(Buffer.from(part.data));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

describe("multipart ingestion parts", () => {
  it("reads the boundary from Content-Type", () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(multipartBoundary(`multipart/form-data; boundary="${BOUNDARY}"`)).toBe(BOUNDARY);
    expect(multipartBoundary("application/json")).toBeUndefined();
  });

  it("joins a run's main part with its field parts and records attachments", () => {
    const parts = splitMultipart(
      body([
        { name: `post.${RUN_ID}`, data: JSON.stringify({ id: RUN_ID, name: "llm", run_type: "llm" }) },
        { name: `post.${RUN_ID}.inputs`, data: JSON.stringify({ messages: [{ role: "user", content: "hi\r\n--x" }] }) },
        { name: `post.${RUN_ID}.error`, data: JSON.stringify("boom") },
        { name: `attachment.${RUN_ID}.photo`, data: Buffer.from([0, 1, 2, 3]), type: "image/png; length=4" },
        { name: `patch.${RUN_ID}.outputs`, data: JSON.stringify({ text: "done" }) },
        { name: "feedback.0f8f3c2e-1111-4a4a-8b8b-000000000009", data: JSON.stringify({ run_id: RUN_ID, key: "correctness", score: 1 }) },
      ]),
      BOUNDARY,
    );
    expect(collectMultipartRuns(parts)).toEqual({
      post: [
        {
          id: RUN_ID,
          name: "llm",
          run_type: "llm",
          inputs: { messages: [{ role: "user", content: "hi\r\n--x" }] },
          error: "boom",
          attachments: { photo: { content_type: "image/png", size_bytes: 4 } },
        },
      ],
      patch: [{ id: RUN_ID, outputs: { text: "done" } }],
      feedback: [{ id: "0f8f3c2e-1111-4a4a-8b8b-000000000009", run_id: RUN_ID, key: "correctness", score: 1 }],
    });
  });

  it("refuses a part that is not JSON, naming it", () => {
    const parts = splitMultipart(body([{ name: `post.${RUN_ID}`, data: "{not json" }]), BOUNDARY);
    expect(() => collectMultipartRuns(parts)).toThrow(MultipartRunsError);
    expect(() => collectMultipartRuns(parts)).toThrow(`part 'post.${RUN_ID}' is not valid JSON`);
  });

  it("refuses unknown part names and fields", () => {
    for (const name of [`run.${RUN_ID}`, `post.${RUN_ID}.colour`, `post.${RUN_ID}.inputs.more`, `feedback.${RUN_ID}.score`]) {
      const parts = splitMultipart(body([{ name, data: "{}" }]), BOUNDARY);
      expect(() => collectMultipartRuns(parts), name).toThrow(MultipartRunsError);
    }
  });

  it("refuses a truncated body", () => {
    const whole = body([{ name: `post.${RUN_ID}`, data: "{}" }]);
    expect(() => splitMultipart(whole.subarray(0, whole.length - 20), BOUNDARY)).toThrow(MultipartSyntaxError);
  });

  it("decodes gzip and zstd bodies, bounds what they inflate to, and refuses unknown encodings", async () => {
    const plain = body([{ name: `post.${RUN_ID}`, data: "{}" }]);
    expect(await decodeBody(gzipSync(plain), "gzip", 1 << 20)).toEqual(plain);
    expect(await decodeBody(zstdCompressSync(plain), "zstd", 1 << 20)).toEqual(plain);
    await expect(decodeBody(zstdCompressSync(Buffer.alloc(1 << 20)), "zstd", 1 << 10)).rejects.toThrow(DecodedBodyTooLargeError);
    await expect(decodeBody(plain, "zstd", 1 << 20)).rejects.toThrow(UnsupportedEncodingError);
    await expect(decodeBody(plain, "compress", 1 << 20)).rejects.toThrow(UnsupportedEncodingError);
  });
});
