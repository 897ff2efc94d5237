import { useEffect, useState } from "react";
import { formatDateTime, formatTimeAgo, formatTimeUntil } from "../lib/format.js";

let sharedNow = new Date();
const subscribers = new Set<(now: Date) => void>();
let timer: number | null = null;

/** The current time, refreshed every 30 s for every relative timestamp on the page at once. */
function useNow(): Date {
  const [now, setNow] = useState(sharedNow);
  useEffect(() => {
    subscribers.add(setNow);
    timer ??= window.setInterval(() => {
      sharedNow = new Date();
      for (const subscriber of subscribers) subscriber(sharedNow);
    }, 30_000);
    return () => {
      subscribers.delete(setNow);
      if (subscribers.size === 0 && timer !== null) {
        window.clearInterval(timer);
        timer = null;
      }
    };
  }, []);
  return now;
}

export function TimeAgo({ iso }: { iso: string | null | undefined }) {
  const now = useNow();
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatTimeAgo(iso, now > new Date(iso) ? now : new Date())}
    </time>
  );
}

/** An instant ahead (a cron's next run), as "in 5 min"; the local timestamp in its title. */
export function TimeUntil({ iso }: { iso: string | null | undefined }) {
  const now = useNow();
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatTimeUntil(iso, now)}
    </time>
  );
}
