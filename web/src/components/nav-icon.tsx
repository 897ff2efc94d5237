// 20×20 stroke icons for the navigation, drawn inline (no icon font or sprite to load).
const PATHS: Record<string, string> = {
  assistants: "M10 3a3 3 0 1 1 0 6 3 3 0 0 1 0-6zM4 17c0-3.3 2.7-5 6-5s6 1.7 6 5",
  playground: "M4 4h12v9H8l-4 3zM7 8h6M7 11h4",
  threads: "M4 5h12M4 10h12M4 15h8",
  traces: "M3 16l4-6 4 3 6-9M3 4v12h14",
  usage: "M4 16V10M8 16V6M12 16v-4M16 16V4M3 16h14",
  crons: "M10 3a7 7 0 1 1 0 14 7 7 0 0 1 0-14zM10 6v4l3 2",
  prices: "M10 3v14M13.5 6.5c-.6-1-1.9-1.5-3.5-1.5-2 0-3.5 1-3.5 2.5S8 9.7 10 10s3.5 1 3.5 2.5S12 15 10 15c-1.6 0-2.9-.5-3.5-1.5",
  memory: "M4 5c0-1.1 2.7-2 6-2s6 .9 6 2-2.7 2-6 2-6-.9-6-2zM4 5v10c0 1.1 2.7 2 6 2s6-.9 6-2V5M4 10c0 1.1 2.7 2 6 2s6-.9 6-2",
};

export function NavIcon({ name }: { name: string }) {
  return (
    <svg className="nav-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
      <path d={PATHS[name] ?? ""} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
