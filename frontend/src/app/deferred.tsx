import { useCallback, useEffect, useState } from 'react';

/** Runs `fn` once the browser is idle (or after a short wait where it cannot say). */
export function whenIdle(fn: () => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(fn, { timeout: 4000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 1500);
  return () => clearTimeout(id);
}

/**
 * For a control whose full component is downloaded after the first screen: `wanted` turns
 * true when the browser is idle, or at once when the stand-in is used (`want(true)`: the
 * full component should then open as it appears).
 */
export function useDeferred(): { wanted: boolean; openOnLoad: boolean; want: (open: boolean) => void } {
  const [wanted, setWanted] = useState(false);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  useEffect(() => whenIdle(() => setWanted(true)), []);
  const want = useCallback((open: boolean) => {
    setOpenOnLoad(open);
    setWanted(true);
  }, []);
  return { wanted, openOnLoad, want };
}
