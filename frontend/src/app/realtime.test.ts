import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CLOSE_TOO_MANY,
  RealtimeClient,
  backoffDelay,
  browserSocketURL,
  idAfter,
  localLastSeen,
  type LastSeenStore,
  type RealtimeMessage,
  type SocketLike,
} from './realtime';

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
  }
  // What the server does:
  accept() {
    this.onopen?.({});
  }
  send(m: object) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  drop() {
    this.onerror?.({});
    this.onclose?.({});
  }
}

function memoryStore(initial = ''): LastSeenStore & { value: string } {
  const s = {
    value: initial,
    get: () => s.value,
    set: (id: string) => {
      s.value = id;
    },
  };
  return s;
}

function setup(opts: { lastSeen?: LastSeenStore; random?: () => number } = {}) {
  const sockets: FakeSocket[] = [];
  const received: RealtimeMessage[] = [];
  let now = 0;
  const client = new RealtimeClient({
    url: (after) => browserSocketURL({ protocol: 'http:', host: 'sekolah:8080' }, after, 'id'),
    open: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    onMessage: (m) => received.push(m),
    lastSeen: opts.lastSeen,
    random: opts.random ?? (() => 1), // the top of the jitter range: exact waits
    now: () => now,
  });
  return {
    client,
    sockets,
    received,
    last: () => sockets[sockets.length - 1]!,
    advance: (ms: number) => {
      now += ms;
      vi.advanceTimersByTime(ms);
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoff', () => {
  it('doubles from 1 s to 60 s', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => backoffDelay(n, 1000, 60_000, () => 1));
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('jitters to between half and all of the wait', () => {
    expect(backoffDelay(3, 1000, 60_000, () => 0)).toBe(2000);
    expect(backoffDelay(3, 1000, 60_000, () => 0.5)).toBe(3000);
    expect(backoffDelay(3, 1000, 60_000, () => 1)).toBe(4000);
  });
});

describe('RealtimeClient', () => {
  it('reconnects with growing waits while the server is down, then from 1 s after a good connection', () => {
    const t = setup();
    t.client.start();
    expect(t.sockets).toHaveLength(1);
    // Five failures: waits of 1, 2, 4, 8, 16 s.
    for (const wait of [1000, 2000, 4000, 8000, 16_000]) {
      t.last().drop();
      t.advance(wait - 1);
      const before = t.sockets.length;
      t.advance(1);
      expect(t.sockets.length, `a new attempt after ${wait} ms`).toBe(before + 1);
    }
    // A connection that stays up resets the schedule.
    t.last().accept();
    t.advance(30_000);
    t.last().drop();
    t.advance(999);
    const n = t.sockets.length;
    t.advance(1);
    expect(t.sockets.length).toBe(n + 1);
    expect(t.client.failureCount).toBe(1);
  });

  it('does not reset the schedule for a connection that is accepted and dropped at once', () => {
    const t = setup();
    t.client.start();
    t.last().drop(); // 1 s
    t.advance(1000);
    t.last().accept();
    t.advance(100);
    t.last().drop(); // the second failure in a row: 2 s
    const n = t.sockets.length;
    t.advance(1999);
    expect(t.sockets.length).toBe(n);
    t.advance(1);
    expect(t.sockets.length).toBe(n + 1);
  });

  it('caps the wait at 60 s', () => {
    const t = setup();
    t.client.start();
    for (let i = 0; i < 12; i++) {
      t.last().drop();
      t.advance(60_000);
    }
    expect(t.sockets).toHaveLength(13);
    t.last().drop();
    t.advance(59_999);
    expect(t.sockets).toHaveLength(13);
    t.advance(1);
    expect(t.sockets).toHaveLength(14);
  });

  it('catches up after the last id seen, kept in memory and in the store', () => {
    const store = memoryStore('41');
    const t = setup({ lastSeen: store });
    t.client.start();
    expect(t.last().url).toBe('ws://sekolah:8080/api/v1/ws?after_id=41&lang=id');
    t.last().accept();
    t.last().send({ type: 'notification', id: '42', title: 'Pelanggaran baru', body: 'Budi', url: '/violations/7' });
    t.last().send({ type: 'summary', count: 9, title: '9 notifikasi', body: '', url: '/notifications', last_id: '57' });
    expect(store.value).toBe('57');
    t.last().drop(); // the server restarts
    t.advance(1000);
    expect(t.last().url).toBe('ws://sekolah:8080/api/v1/ws?after_id=57&lang=id');
    expect(t.received.map((m) => m.type)).toEqual(['notification', 'summary']);
  });

  it('starts without after_id when nothing was seen', () => {
    const t = setup({ lastSeen: memoryStore('') });
    t.client.start();
    expect(t.last().url).toBe('ws://sekolah:8080/api/v1/ws?lang=id');
  });

  it('takes a newer id another tab stored before reconnecting', () => {
    const store = memoryStore('10');
    const t = setup({ lastSeen: store });
    t.client.start();
    store.value = '20';
    t.last().drop();
    t.advance(1000);
    expect(t.last().url).toContain('after_id=20');
  });

  it('passes a repeated notification on once, and one arriving out of id order too', () => {
    const t = setup({ lastSeen: memoryStore('') });
    t.client.start();
    t.last().accept();
    const n = (id: string) => ({ type: 'notification', id, title: 't', body: 'b', url: '/violations/1' });
    t.last().send(n('11'));
    t.last().send(n('10')); // committed later than 11
    t.last().send(n('11')); // repeated by a catch-up
    expect(t.received.map((m) => (m.type === 'notification' ? m.id : ''))).toEqual(['11', '10']);
    expect(t.client.lastSeenId).toBe('11');
  });

  it('passes unread counts on and ignores what it does not know', () => {
    const t = setup();
    t.client.start();
    t.last().accept();
    t.last().send({ type: 'unread', count: 3 });
    t.last().send({ type: 'ping-from-the-future' });
    t.last().onmessage?.({ data: 'not json' });
    expect(t.received).toEqual([{ type: 'unread', count: 3 }]);
  });

  it('stops for good: closes the socket and never reconnects', () => {
    const t = setup();
    t.client.start();
    const s = t.last();
    t.client.stop();
    expect(s.closed).toBe(true);
    t.advance(120_000);
    expect(t.sockets).toHaveLength(1);
  });

  it('reconnects at once when asked (the network came back)', () => {
    const t = setup();
    t.client.start();
    for (let i = 0; i < 5; i++) {
      t.last().drop();
      t.advance(60_000);
    }
    t.last().drop();
    const n = t.sockets.length;
    t.client.reconnectNow();
    expect(t.sockets.length).toBe(n + 1);
    expect(t.client.failureCount).toBe(0);
  });
});

describe('helpers', () => {
  it('compares decimal ids as numbers', () => {
    expect(idAfter('10', '9')).toBe(true);
    expect(idAfter('9', '10')).toBe(false);
    expect(idAfter('12345678901234567890', '12345678901234567889')).toBe(true);
    expect(idAfter('5', '')).toBe(true);
    expect(idAfter('', '5')).toBe(false);
  });

  it('builds wss URLs for https pages', () => {
    expect(browserSocketURL({ protocol: 'https:', host: 'tatib.sch.id' }, '7', 'en')).toBe(
      'wss://tatib.sch.id/api/v1/ws?after_id=7&lang=en',
    );
  });

  it('keeps the last seen id per user and never moves it back', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    } as unknown as Storage;
    const a = localLastSeen(1, storage);
    const b = localLastSeen(2, storage);
    a.set('30');
    a.set('20');
    expect(a.get()).toBe('30');
    expect(b.get()).toBe('');
  });
});

describe('a socket closed for too many tabs', () => {
  it('waits to be shown again instead of reconnecting by itself', () => {
    const t = setup();
    t.client.start();
    t.last().accept();
    t.last().onclose?.({ code: CLOSE_TOO_MANY });
    t.advance(120_000);
    expect(t.sockets).toHaveLength(1);
    t.client.reconnectNow();
    expect(t.sockets).toHaveLength(2);
  });
});
