import { useSyncExternalStore } from 'react';

/**
 * Whether the last API call reached the server. The query cache reports into it; the
 * shell shows a "server cannot be reached" banner with a retry while it is false.
 */
let reachable = true;
const listeners = new Set<() => void>();

export function setServerReachable(v: boolean): void {
  if (v === reachable) return;
  reachable = v;
  listeners.forEach((l) => l());
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useServerReachable(): boolean {
  return useSyncExternalStore(subscribe, () => reachable, () => true);
}
