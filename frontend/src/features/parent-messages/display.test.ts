import { describe, expect, it } from 'vitest';
import type { ParentMessage } from './api';
import { actionsFor, formatPhone, hasQueued, prettyAnswer, totalCount, truncateAnswer } from './display';

describe('parent numbers', () => {
  it('groups a full number for reading', () => {
    expect(formatPhone('6281234567890', false)).toBe('+62 812-3456-7890');
    expect(formatPhone('628123456789', false)).toBe('+62 812-3456-789');
  });

  it('keeps a masked number as the server masked it, the country code apart', () => {
    expect(formatPhone('62812•••••890', true)).toBe('+62 812•••••890');
  });

  it('leaves other and empty numbers alone', () => {
    expect(formatPhone('', false)).toBe('');
    expect(formatPhone('15551234', false)).toBe('15551234');
  });
});

describe('gateway answers', () => {
  it('cuts a long answer on one line', () => {
    expect(truncateAnswer('{"status":false,\n  "reason":"x"}', 100)).toBe('{"status":false, "reason":"x"}');
    const cut = truncateAnswer('a'.repeat(200), 80);
    expect(cut).toHaveLength(80);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('indents JSON and leaves other text as it came', () => {
    expect(prettyAnswer('{"status":true}')).toBe('{\n  "status": true\n}');
    expect(prettyAnswer('dial tcp: connection refused')).toBe('dial tcp: connection refused');
    expect(prettyAnswer('{broken')).toBe('{broken');
  });
});

describe('the log', () => {
  const msg = (status: ParentMessage['status']) => ({ status }) as ParentMessage;

  it('refreshes while anything is queued', () => {
    expect(hasQueued(undefined)).toBe(false);
    expect(hasQueued({ data: [msg('sent')], counts: { sent: 1 } })).toBe(false);
    expect(hasQueued({ data: [], counts: { queued: 2 } })).toBe(true);
    expect(hasQueued({ data: [msg('queued')], counts: {} })).toBe(true);
  });

  it('totals the counts for the "all" chip', () => {
    expect(totalCount({ sent: 3, failed: 2, queued: 1 })).toBe(6);
    expect(totalCount(undefined)).toBe(0);
  });

  it('offers retry for what did not go out and cancel for what waits', () => {
    expect(actionsFor('failed')).toEqual({ retry: true, cancel: false });
    expect(actionsFor('skipped')).toEqual({ retry: true, cancel: false });
    expect(actionsFor('queued')).toEqual({ retry: false, cancel: true });
    expect(actionsFor('sent')).toEqual({ retry: false, cancel: false });
  });
});
