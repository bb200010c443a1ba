import { describe, expect, it } from 'vitest';
import { isDesktop, platform } from './index';

describe('platform selection', () => {
  it('detects the Wails web view by its globals', () => {
    expect(isDesktop({ go: {} })).toBe(true);
    expect(isDesktop({ runtime: {} })).toBe(true);
    expect(isDesktop({})).toBe(false);
    expect(isDesktop(undefined)).toBe(false);
  });

  it('uses the browser implementation outside Wails', () => {
    expect(platform.kind).toBe('browser');
  });
});
