/**
 * The browser's real-time channel: one WebSocket to /api/v1/ws per tab (the session cookie
 * signs it in), reconnected with backoff, catching up by the last notification id seen so
 * nothing is lost across a server restart or a network drop. No React here: RealtimeProvider
 * wires it to the query cache, toasts and OS popups; the tests drive it with a fake socket.
 */

/** One notification (GET /api/v1/ws, shared/api WSMessage type "notification"). */
export interface NotificationMessage {
  type: 'notification';
  id: string;
  kind?: string;
  title: string;
  body: string;
  url: string;
  created_at?: string;
}

/** More than a few at once (a catch-up, a journal push): one message for all of them. */
export interface SummaryMessage {
  type: 'summary';
  count: number;
  title: string;
  body: string;
  url: string;
  last_id?: string;
}

/** The user's unread count changed (new, read in another tab, read all). */
export interface UnreadMessage {
  type: 'unread';
  count: number;
}

export type RealtimeMessage = NotificationMessage | SummaryMessage | UnreadMessage;

/** The part of a WebSocket the client uses (a fake one in tests). */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(code?: number, reason?: string): void;
}

/** Where the last seen id is kept across reloads (localStorage, per user). */
export interface LastSeenStore {
  get(): string;
  set(id: string): void;
}

/** The server's close code for a socket closed because its session opened too many (notify.CloseTooMany). */
export const CLOSE_TOO_MANY = 4429;

export type RealtimeState = 'connecting' | 'open' | 'waiting' | 'stopped';

export interface RealtimeOptions {
  /** The socket URL for a connection that catches up after `afterId` ('' = nothing seen yet). */
  url(afterId: string): string;
  open(url: string): SocketLike;
  onMessage(m: RealtimeMessage): void;
  onState?(s: RealtimeState): void;
  lastSeen?: LastSeenStore;
  /** First wait after a failure; doubles up to maxDelay. */
  minDelay?: number;
  maxDelay?: number;
  /** A connection that stayed up this long was a good one: the backoff starts over. */
  stableAfter?: number;
  random?: () => number;
  now?: () => number;
}

/** Decimal ids compared as numbers, without the float limit. */
export function idAfter(a: string, b: string): boolean {
  if (!/^\d+$/.test(a)) return false;
  if (!/^\d+$/.test(b)) return true;
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  return x.length !== y.length ? x.length > y.length : x > y;
}

/**
 * The wait before reconnect attempt `failures` (1, 2, …): minDelay doubling up to maxDelay,
 * jittered to between half and all of it so a restarted server is not hit by every tab at once.
 */
export function backoffDelay(failures: number, minDelay: number, maxDelay: number, random: () => number): number {
  const base = Math.min(minDelay * 2 ** Math.max(0, failures - 1), maxDelay);
  return Math.round(base / 2 + random() * (base / 2));
}

export class RealtimeClient {
  private socket: SocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private openedAt = 0;
  private stopped = true;
  private last: string;
  private readonly shown = new Set<string>();
  private readonly o: Required<Omit<RealtimeOptions, 'onState' | 'lastSeen'>> & Pick<RealtimeOptions, 'onState' | 'lastSeen'>;

  constructor(options: RealtimeOptions) {
    this.o = { minDelay: 1000, maxDelay: 60_000, stableAfter: 10_000, random: Math.random, now: Date.now, ...options };
    this.last = this.o.lastSeen?.get() ?? '';
  }

  /** The last notification id seen (what the next connection catches up after). */
  get lastSeenId(): string {
    return this.last;
  }

  /** Failed attempts since the last good connection. */
  get failureCount(): number {
    return this.failures;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onopen = s.onmessage = s.onclose = s.onerror = null;
      s.close(1000, 'bye');
    }
    this.o.onState?.('stopped');
  }

  /** Connects now instead of waiting (the network came back, the tab became visible). */
  reconnectNow(): void {
    if (this.stopped || this.socket) return;
    this.clearTimer();
    this.failures = 0;
    this.connect();
  }

  /** Remembers an id seen some other way (a page of the list): the next catch-up starts after it. */
  markSeen(id: string): void {
    if (!idAfter(id, this.last)) return;
    this.last = id;
    this.o.lastSeen?.set(id);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private connect(): void {
    // Another tab may have seen more since this one loaded.
    const stored = this.o.lastSeen?.get() ?? '';
    if (idAfter(stored, this.last)) this.last = stored;
    this.o.onState?.('connecting');
    let s: SocketLike;
    try {
      s = this.o.open(this.o.url(this.last));
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = s;
    this.openedAt = 0;
    s.onopen = () => {
      this.openedAt = this.o.now();
      this.o.onState?.('open');
    };
    s.onmessage = (ev) => this.receive(ev.data);
    s.onerror = () => {
      /* onclose follows and decides */
    };
    s.onclose = (ev) => {
      if (this.socket !== s) return;
      this.socket = null;
      if (this.openedAt && this.o.now() - this.openedAt >= this.o.stableAfter) this.failures = 0;
      // The server closed this, the session's oldest socket, for a newer one (too many tabs):
      // reconnecting by itself would only close another tab's. The page reconnects when shown.
      if ((ev as { code?: number } | null)?.code === CLOSE_TOO_MANY) {
        this.o.onState?.('waiting');
        return;
      }
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    this.failures++;
    this.o.onState?.('waiting');
    const wait = backoffDelay(this.failures, this.o.minDelay, this.o.maxDelay, this.o.random);
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, wait);
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let m: RealtimeMessage;
    try {
      m = JSON.parse(data) as RealtimeMessage;
    } catch {
      return;
    }
    if (!m || typeof m !== 'object') return;
    switch (m.type) {
      case 'notification':
        // A catch-up may repeat what this tab already showed. Ids are remembered one by one,
        // not only the highest: two transactions may commit (and arrive) out of id order.
        if (m.id) {
          if (this.shown.has(m.id)) return;
          this.shown.add(m.id);
          if (this.shown.size > 500) this.shown.delete(this.shown.values().next().value as string);
          this.markSeen(m.id);
        }
        break;
      case 'summary':
        if (m.last_id) this.markSeen(m.last_id);
        break;
      case 'unread':
        break;
      default:
        return;
    }
    this.o.onMessage(m);
  }
}

/** The socket URL of this page's server: ws(s)://<host>/api/v1/ws?after_id=…&lang=…. */
export function browserSocketURL(loc: { protocol: string; host: string }, afterId: string, lang: string): string {
  const q = new URLSearchParams();
  if (afterId) q.set('after_id', afterId);
  if (lang) q.set('lang', lang);
  const qs = q.toString();
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/api/v1/ws${qs ? `?${qs}` : ''}`;
}

/** The last seen id in localStorage, one key per user (a shared computer, another account). */
export function localLastSeen(userId: number | string, storage: Storage | undefined = globalThis.localStorage): LastSeenStore {
  const key = `tatib.notifications.lastSeen.${userId}`;
  return {
    get: () => {
      try {
        return storage?.getItem(key) ?? '';
      } catch {
        return '';
      }
    },
    set: (id) => {
      try {
        const cur = storage?.getItem(key) ?? '';
        if (idAfter(id, cur)) storage?.setItem(key, id);
      } catch {
        /* private mode: memory only */
      }
    },
  };
}
