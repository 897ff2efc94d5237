// Bundled for the browser by cors-browser.e2e.test.ts: the official SDK client, as a page on
// another origin would ship it.
import { Client } from "@langchain/langgraph-sdk";

(globalThis as Record<string, unknown>).LangGraphClient = Client;
