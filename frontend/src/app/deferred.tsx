import { useCallback, useEffect, useState } from 'react';

/**
 * Runs `fn` a few seconds after the first screen, once the browser is idle. Not sooner: while
 * the first screen waits on the network the browser looks idle too, and these downloads would
 * share a slow connection with the screen's own.
 */
export function whenIdle(fn: () => void, afterMs = 3000): () => void {
  if (typeof window === 'undefined') return () => undefined;
  let idle: number | undefined;
  const timer = setTimeout(() => {
    if ('requestIdleCallback' in window) idle = window.requestIdleCallback(fn, { timeout: 4000 });
    else fn();
  }, afterMs);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
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
