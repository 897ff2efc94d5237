import { useCallback, useEffect, useState } from "react";
import { forgetApiKey, useApiKeyState } from "./api/api-key.js";
import { useConnectionState } from "./api/connection.js";
import { KeyPrompt } from "./components/key-prompt.js";
import { NavIcon } from "./components/nav-icon.js";
import { ShortcutsDialog, useGlobalShortcuts } from "./components/shortcuts.js";
import { CONSOLE_BASE, routePath, sectionOf, type Route } from "./lib/routes.js";
import { AssistantDetailPage } from "./pages/assistants/assistant-detail-page.js";
import { AssistantsPage } from "./pages/assistants/assistants-page.js";
import { CronsPage } from "./pages/crons/crons-page.js";
import { MemoryPage } from "./pages/memory/memory-page.js";
import { PlaygroundPage } from "./pages/playground/playground-page.js";
import { PricesPage } from "./pages/prices/prices-page.js";
import { ThreadDetailPage } from "./pages/threads/thread-detail-page.js";
import { ThreadsPage } from "./pages/threads/threads-page.js";
import { TraceDetailPage } from "./pages/traces/trace-detail-page.js";
import { TracesPage } from "./pages/traces/traces-page.js";
import { UsagePage } from "./pages/traces/usage-page.js";
import { Link, useRoute } from "./router.js";
import { applyThemeChoice, nextThemeChoice, readThemeChoice, type ThemeChoice } from "./theme.js";

const NAVIGATION = [
  { section: "assistants", label: "Assistants", to: routePath({ page: "assistants" }) },
  { section: "playground", label: "Test", to: routePath({ page: "playground", assistantId: null, threadId: null }) },
  { section: "threads", label: "Threads", to: routePath({ page: "threads" }) },
  { section: "traces", label: "Traces", to: routePath({ page: "traces" }) },
  { section: "usage", label: "Usage", to: routePath({ page: "usage" }) },
  { section: "crons", label: "Crons", to: routePath({ page: "crons" }) },
  { section: "memory", label: "Memory", to: routePath({ page: "memory" }) },
  { section: "prices", label: "Prices", to: routePath({ page: "prices" }) },
] as const;

const PAGE_TITLES: Record<string, string> = {
  assistants: "Assistants",
  playground: "Test environment",
  threads: "Threads",
  traces: "Traces",
  usage: "Usage",
  crons: "Crons",
  memory: "Memory",
  prices: "Prices",
};

export function App() {
  const route = useRoute();
  const keyState = useApiKeyState();
  const connection = useConnectionState();
  const [isHelpOpen, setHelpOpen] = useState(false);
  const [theme, setTheme] = useState<ThemeChoice>(readThemeChoice);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  useGlobalShortcuts(openHelp);
  const section = sectionOf(route);

  useEffect(() => {
    document.title = section ? `${PAGE_TITLES[section]} · Hangar` : "Hangar";
  }, [section]);

  const cycleTheme = () => {
    const next = nextThemeChoice(theme);
    applyThemeChoice(next);
    setTheme(next);
  };

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Sections">
        <div className="sidebar-inner">
          <Link to={routePath({ page: "assistants" })} className="brand">
            <img src={`${CONSOLE_BASE}/favicon.svg`} alt="" width={22} height={22} />
            <span>Hangar</span>
          </Link>
          <ul className="nav-list">
            {NAVIGATION.map((item) => (
              <li key={item.section}>
                <Link to={item.to} className="nav-link" aria-current={section === item.section ? "page" : undefined}>
                  <NavIcon name={item.section} />
                  <span>{item.label}</span>
                </Link>
              </li>
            ))}
          </ul>
          <div className="sidebar-footer">
            <button type="button" className="sidebar-button" onClick={cycleTheme} title="Switch between system, light and dark">
              Theme: {theme}
            </button>
            {keyState.key && (
              <button type="button" className="sidebar-button" onClick={forgetApiKey} title="Remove the API key from this browser session">
                Forget API key
              </button>
            )}
            <button type="button" className="sidebar-button" onClick={openHelp}>
              Shortcuts <kbd>?</kbd>
            </button>
          </div>
        </div>
      </nav>
      <main id="main" className="main" tabIndex={-1}>
        {!connection.isConnected && (
          <div className="banner banner-warning disconnected-banner" role="status" data-testid="disconnected">
            Disconnected from the server — retrying
          </div>
        )}
        <CurrentPage route={route} />
      </main>
      {keyState.isKeyRequired && <KeyPrompt hadKey={keyState.key !== null} />}
      {isHelpOpen && <ShortcutsDialog onClose={() => setHelpOpen(false)} />}
    </div>
  );
}

function CurrentPage({ route }: { route: Route }) {
  switch (route.page) {
    case "assistants":
      return <AssistantsPage />;
    case "assistant":
      return <AssistantDetailPage key={route.assistantId} assistantId={route.assistantId} />;
    case "playground":
      return <PlaygroundPage assistantId={route.assistantId} threadId={route.threadId} />;
    case "threads":
      return <ThreadsPage />;
    case "thread":
      return <ThreadDetailPage key={route.threadId} threadId={route.threadId} />;
    case "traces":
      return <TracesPage />;
    case "trace":
      return <TraceDetailPage key={route.traceId} traceId={route.traceId} selectedRunId={route.runId} />;
    case "usage":
      return <UsagePage />;
    case "crons":
      return <CronsPage />;
    case "memory":
      return <MemoryPage />;
    case "prices":
      return <PricesPage />;
    case "not-found":
      return (
        <div className="page">
          <h1>Not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <Link to={routePath({ page: "assistants" })}>Go to the assistants</Link>.
          </p>
        </div>
      );
  }
}
