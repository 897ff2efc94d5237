import type { Logger } from "../logger.js";
import { GroupCommit } from "./group-commit.js";

/** Assistants were created, changed or deleted (MCP sessions tell their clients the tool list changed). */
export const ASSISTANTS_CHANGED_CHANNEL = "hangar_assistant_changed";

export type ChangeChannel = typeof ASSISTANTS_CHANGED_CHANNEL;

/**
 * How long a change waits for its NOTIFY. Changes made meanwhile share it: under a burst of
 * writes a process sends at most one NOTIFY per channel per this interval (plus one per round
 * still in flight), and listeners re-read once per NOTIFY rather than once per write.
 */
const ANNOUNCE_DELAY_MS = 50;

/**
 * Tells other processes (LISTEN, streaming/run-signals.ts) that something changed, AFTER the change
 * committed and in a statement of its own, debounced per channel (trailing: a NOTIFY goes out
 * within ANNOUNCE_DELAY_MS of the first change not yet announced, and a change that comes while a
 * NOTIFY is in flight gets another one, since that one may commit before the change is visible).
 *
 * Why not a trigger: a transaction that sent a NOTIFY takes PostgreSQL's global notify-queue lock
 * at commit, so every writing transaction of the table committed one after the other
 * (migrations/1764400000000-drop-assistant-change-trigger.ts has the numbers).
 *
 * Trade-off, accepted: a process that dies between a commit and its NOTIFY (at most
 * ANNOUNCE_DELAY_MS later) or a NOTIFY that fails leaves other processes unaware of that change
 * until the next one. Only notifications that make listeners look again go through here, never
 * one that work or correctness depends on (the run queue's NOTIFYs stay in its transactions).
 */
export class ChangeAnnouncer {
  /** Channels waiting for a round that has not started yet: one queued entry each is enough. */
  private readonly waiting = new Set<ChangeChannel>();
  private readonly rounds: GroupCommit<ChangeChannel>;

  constructor(send: (channels: ChangeChannel[]) => Promise<void>, log: Logger) {
    this.rounds = new GroupCommit({
      write: async (channels) => {
        // From here on a new change is not covered by this round's NOTIFY: it queues again.
        for (const channel of channels) this.waiting.delete(channel);
        await send(channels);
      },
      delayMs: ANNOUNCE_DELAY_MS,
      maxBatch: Number.POSITIVE_INFINITY,
      onError: (error) => log.warn({ err: error }, "could not announce a change to other processes; they see it at the next one"),
    });
  }

  /** Call after the change committed. Returns at once; the NOTIFY follows (see the class). */
  announce(channel: ChangeChannel): void {
    if (this.waiting.has(channel)) return;
    this.waiting.add(channel);
    this.rounds.add(channel);
  }

  /** Resolves once every change announced before the call has been sent (at shutdown; in tests). */
  flush(): Promise<void> {
    return this.rounds.flush();
  }
}
