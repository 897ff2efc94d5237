import { parentPort, workerData } from "node:worker_threads";
import { extractStaticSchemas, type StaticSchemaRequest } from "./extract-static-schemas.js";

// Worker-thread entry: compiling a deployment's TypeScript takes seconds of CPU, which must not
// stall the server's event loop. One request in, one answer out, then the thread ends.
try {
  parentPort!.postMessage({ ok: true, schemas: extractStaticSchemas(workerData as StaticSchemaRequest[]) });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
