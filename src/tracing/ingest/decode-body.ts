import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * Request bodies with a Content-Encoding. The langsmith SDK compresses multipart bodies only when
 * /info advertises it (instance_flags.gzip_body_enabled or zstd_compression_enabled); we advertise
 * neither (compressing costs the client CPU for a loopback or LAN hop), so with default options
 * bodies arrive uncompressed. gzip, deflate, br and zstd are still accepted for clients that
 * compress anyway (the langsmith SDK's zstd option, OpenTelemetry exporters' gzip).
 */
export class UnsupportedEncodingError extends Error {}
export class DecodedBodyTooLargeError extends Error {}

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const brotliDecompress = promisify(zlib.brotliDecompress);
const zstdDecompress = promisify(zlib.zstdDecompress);

export async function decodeBody(body: Buffer, contentEncoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const encoding = (contentEncoding ?? "identity").trim().toLowerCase();
  // maxOutputLength bounds the inflated size, so a small compressed body cannot expand unbounded.
  const options = { maxOutputLength: maxBytes };
  try {
    switch (encoding) {
      case "":
      case "identity":
        return body;
      case "gzip":
      case "x-gzip":
        return await gunzip(body, options);
      case "deflate":
        return await inflate(body, options);
      case "br":
        return await brotliDecompress(body, options);
      case "zstd":
        return await zstdDecompress(body, options);
      default:
        throw new UnsupportedEncodingError(
          `Content-Encoding '${encoding}' is not supported; send the body uncompressed or compressed with gzip, deflate, br or zstd`,
        );
    }
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new DecodedBodyTooLargeError(`decompressed body is larger than ${maxBytes} bytes`);
    }
    if (error instanceof UnsupportedEncodingError) throw error;
    throw new UnsupportedEncodingError(`body is not valid ${encoding} data: ${(error as Error).message}`);
  }
}
