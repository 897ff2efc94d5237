import { extractStaticSchemas, type StaticSchemaRequest } from "./extract-static-schemas.js";

// Child-process entry (static-schemas-in-child.ts): one batch of requests in over IPC, one
// answer out, then the process ends and hands all of the compiler's memory back.
process.once("message", (requests: StaticSchemaRequest[]) => {
  let answer: { ok: true; schemas: unknown } | { ok: false; message: string };
  try {
    answer = { ok: true, schemas: extractStaticSchemas(requests) };
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  process.send!(answer, () => process.disconnect());
});
