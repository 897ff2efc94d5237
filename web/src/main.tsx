import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import { applyThemeChoice, readThemeChoice } from "./theme.js";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/controls.css";
import "./styles/components.css";
import "./styles/assistants.css";
import "./styles/crons.css";
import "./styles/graph.css";
import "./styles/memory.css";
import "./styles/playground.css";
import "./styles/threads.css";
import "./styles/traces.css";
import "./styles/usage.css";
import "./styles/trace-feedback.css";

// Before the first render, so a stored dark choice never flashes light.
applyThemeChoice(readThemeChoice());

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
