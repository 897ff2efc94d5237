import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The web console: built into dist/web, which the server serves at / and /console/ (see
 * src/http/console-static.ts). Everything lives under /console/ so no asset or client route can
 * collide with an API path. `npm run dev:web` serves it with hot reload and proxies /graphql
 * (HTTP and WebSocket) to a running Hangar (HANGAR_URL, default http://127.0.0.1:2024).
 */
export default defineConfig(({ command }) => ({
  root: here,
  // Built with relative asset URLs: the server serves the console under any http.mount_prefix and
  // makes them absolute in the index.html it serves (src/http/console-static.ts). The dev server
  // serves it at /console/ as the server does without a prefix.
  base: command === "build" ? "./" : "/console/",
  plugins: [react()],
  build: {
    outDir: path.resolve(here, "../dist/web"),
    emptyOutDir: true,
    target: "es2022",
    // One small app: a single chunk loads faster than a waterfall of route chunks. The graph view
    // (React Flow + dagre, ~240 kB) is part of it: as a lazy chunk its first drawing of a 50-node
    // graph took ~250 ms instead of ~100 ms on a loaded machine (studio.e2e.test.ts measures it).
    chunkSizeWarningLimit: 650,
  },
  server: {
    proxy: {
      "/graphql": { target: process.env.HANGAR_URL ?? "http://127.0.0.1:2024", ws: true, changeOrigin: true },
      // The console's liveness probe (api/connection.ts).
      "/ok": { target: process.env.HANGAR_URL ?? "http://127.0.0.1:2024", changeOrigin: true },
    },
  },
}));
